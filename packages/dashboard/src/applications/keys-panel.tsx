import { useState } from 'preact/hooks';
import { isApiError, type Api, type ApiKey, type Application } from '../api.js';
import { formatDate } from '../format.js';
import { useLoad } from '../use-load.js';
import { CopyButton } from '../copy-button.js';

/** An application's keys: a new key's value is shown once, here, and never again. */
export function KeysPanel({ api, app }: { api: Api; app: Application }) {
  const keys = useLoad(() => api.listKeys(app.id), [api, app.id]);
  const [type, setType] = useState<ApiKey['type']>('secret');
  const [environment, setEnvironment] = useState<ApiKey['environment']>('test');
  const [shown, setShown] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function act(action: () => Promise<unknown>) {
    setError(null);
    try {
      await action();
      keys.reload();
    } catch (err) {
      setError(isApiError(err) ? err.message : 'The server could not be reached.');
    }
  }

  return (
    <section class="card" aria-labelledby="keys-heading">
      <h2 id="keys-heading">Keys of {app.name}</h2>
      <div class="inline">
        <label for="key-type">Type</label>
        <select id="key-type" value={type} onChange={(e) => setType(e.currentTarget.value as ApiKey['type'])}>
          <option value="secret">Secret</option>
          <option value="publishable">Publishable</option>
        </select>
        <label for="key-env">Environment</label>
        <select id="key-env" value={environment} onChange={(e) => setEnvironment(e.currentTarget.value as ApiKey['environment'])}>
          <option value="test">Test</option>
          <option value="live">Live</option>
        </select>
        <button onClick={() => act(async () => setShown((await api.createKey(app.id, type, environment)).key))}>Create key</button>
      </div>
      {shown && (
        <p class="secret">
          Copy this key now; it will not be shown again: <code data-testid="new-key">{shown}</code>{' '}
          <CopyButton text={shown} label="Copy key" />
        </p>
      )}
      <p role="alert" class="error">{error ?? ''}</p>
      {keys.loading && !keys.data && <p class="muted">Loading…</p>}
      {keys.data && keys.data.data.length === 0 && <p class="muted">No keys yet.</p>}
      <ul class="rows">
        {keys.data?.data.map((key) => (
          <li key={key.id}>
            <span class={`badge ${key.environment}`}>{key.environment === 'live' ? 'Live' : 'Test'}</span>
            <code>{key.masked}</code>
            <span>{key.status === 'revoked' ? `revoked ${formatDate(key.revoked_at)}` : `created ${formatDate(key.created_at)}`}</span>
            {key.status === 'active' && <button class="danger" aria-label={`Revoke ${key.masked}`} onClick={() => act(() => api.revokeKey(app.id, key.id))}>Revoke</button>}
          </li>
        ))}
      </ul>
    </section>
  );
}
