import { useState } from 'preact/hooks';
import { isApiError, type Api, type Application } from '../api.js';

export function CreateApplicationForm({ api, onCreated }: { api: Api; onCreated: (app: Application) => void }) {
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    try {
      const app = await api.createApplication(name, address.trim());
      setName('');
      setAddress('');
      onCreated(app);
    } catch (err) {
      setError(isApiError(err) ? err.message : 'The server could not be reached.');
    }
  }

  return (
    <form class="card" onSubmit={submit} aria-labelledby="new-app-heading">
      <h2 id="new-app-heading">New application</h2>
      <label for="app-name">Name</label>
      <input id="app-name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <label for="app-address">Settlement address</label>
      <input id="app-address" placeholder="G…" aria-describedby="app-address-hint" value={address} onInput={(e) => setAddress(e.currentTarget.value)} />
      <p id="app-address-hint" class="muted">
        The Stellar account (G…) credited payments are paid out to. Creating a funding intent needs it, unless each request
        names its own <code>destination_address</code>; you can add or change it later here.
      </p>
      <p role="alert" class="error">{error ?? ''}</p>
      <button type="submit">Create application</button>
    </form>
  );
}
