import { useState } from 'preact/hooks';
import type { AppApi, Endpoint } from '../app-api.js';
import { formatDate } from '../format.js';
import { errorText, useLoad } from '../use-load.js';
import { CreateEndpointForm } from './create-endpoint-form.js';
import { Deliveries } from './deliveries.js';

/** Webhook endpoints: create, rotate the secret, disable or enable; one endpoint's deliveries. */
export function WebhooksPage({ app }: { app: AppApi }) {
  const endpoints = useLoad(() => app.endpoints(), [app], 10000);
  const [selected, setSelected] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function act(action: () => Promise<Partial<Endpoint> & { secret?: string }>) {
    setError(null);
    try {
      const result = await action();
      setSecret(result.secret ?? null);
      endpoints.reload();
    } catch (err) {
      setError(errorText(err));
    }
  }

  const shown = endpoints.data?.data.find((e) => e.id === selected);
  return (
    <main>
      <h1>Webhooks</h1>
      <CreateEndpointForm onCreate={(url, events) => act(async () => {
        const created = await app.createEndpoint(url, events);
        setSelected(created.id);
        return created;
      })} />
      {secret && (
        <p class="secret" role="status">Copy this signing secret now; it will not be shown again: <code data-testid="webhook-secret">{secret}</code></p>
      )}
      <p role="alert" class="error">{error ?? ''}</p>
      <section class="card" aria-labelledby="endpoints-heading" aria-busy={endpoints.loading}>
        <h2 id="endpoints-heading">Endpoints</h2>
        {endpoints.error && <p role="alert" class="error">{endpoints.error}</p>}
        {endpoints.loading && !endpoints.data && <p class="muted">Loading…</p>}
        {endpoints.data && endpoints.data.data.length === 0 && <p class="muted">No webhook endpoints yet.</p>}
        <ul class="rows">
          {endpoints.data?.data.map((e) => (
            <li key={e.id}>
              <button class="link" aria-pressed={selected === e.id} onClick={() => setSelected(e.id)}>{e.url}</button>
              <span class={`status ${e.enabled ? 'ok' : 'bad'}`}>{e.enabled ? 'Enabled' : 'Disabled'}</span>
              <span class="muted">{e.events.join(', ')}</span>
              <span class="muted">{formatDate(e.created_at)}</span>
              <button aria-label={`Rotate secret of ${e.url}`} onClick={() => act(() => app.rotateSecret(e.id))}>Rotate secret</button>
              <button class="danger" aria-label={`${e.enabled ? 'Disable' : 'Enable'} ${e.url}`} onClick={() => act(() => app.setEndpointEnabled(e.id, !e.enabled))}>{e.enabled ? 'Disable' : 'Enable'}</button>
            </li>
          ))}
        </ul>
      </section>
      {shown && <Deliveries key={shown.id} app={app} endpoint={shown} />}
    </main>
  );
}
