import { useState } from 'preact/hooks';
import { isApiError, type Api, type Application } from '../api.js';

/** Rename an application, change its settlement address (empty clears it) or its default deposit type. */
export function EditApplicationForm({ api, app, onSaved }: { api: Api; app: Application; onSaved: (app: Application) => void }) {
  const [name, setName] = useState(app.name);
  const [address, setAddress] = useState(app.settlement_address ?? '');
  const [depositType, setDepositType] = useState(app.default_deposit_type);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    try {
      onSaved(await api.updateApplication(app.id, { name, settlement_address: address.trim() || null, default_deposit_type: depositType }));
    } catch (err) {
      setError(isApiError(err) ? err.message : 'The server could not be reached.');
    }
  }

  return (
    <form class="card" onSubmit={submit} aria-labelledby="edit-app-heading">
      <h2 id="edit-app-heading">Settings of {app.name}</h2>
      <label for="edit-name">Application name</label>
      <input id="edit-name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <label for="edit-address">Default settlement address</label>
      <input id="edit-address" placeholder="G…" value={address} onInput={(e) => setAddress(e.currentTarget.value)} />
      <label for="edit-deposit-type">Default deposit type</label>
      <select id="edit-deposit-type" aria-describedby="edit-deposit-type-help" value={depositType}
        onChange={(e) => setDepositType(e.currentTarget.value as Application['default_deposit_type'])}>
        <option value="account">Account (G…), one per intent</option>
        <option value="muxed">Muxed (M…), no reserve</option>
      </select>
      <p id="edit-deposit-type-help" class="muted">For intents created without <code>deposit_type</code>. Muxed intents are paid in their own asset only, and need the operator to have run <code>fundkit treasury --collections</code>.</p>
      <p role="alert" class="error">{error ?? ''}</p>
      <button type="submit">Save</button>
    </form>
  );
}
