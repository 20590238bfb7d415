import { useState } from 'preact/hooks';
import { isApiError, type Api, type Application } from '../api.js';

/** Rename an application or change its settlement address; an empty address clears it. */
export function EditApplicationForm({ api, app, onSaved }: { api: Api; app: Application; onSaved: (app: Application) => void }) {
  const [name, setName] = useState(app.name);
  const [address, setAddress] = useState(app.settlement_address ?? '');
  const [error, setError] = useState<string | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    try {
      onSaved(await api.updateApplication(app.id, { name, settlement_address: address.trim() || null }));
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
      <p role="alert" class="error">{error ?? ''}</p>
      <button type="submit">Save</button>
    </form>
  );
}
