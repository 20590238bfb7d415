import { useState } from 'preact/hooks';
import type { AppApi } from '../app-api.js';
import { formatDate } from '../format.js';
import { Pager, usePager } from '../pager.js';
import { useLoad } from '../use-load.js';

/** The application's API requests (made with its keys; dashboard requests are not logged). */
export function LogsPage({ app }: { app: AppApi }) {
  const [method, setMethod] = useState('');
  const [status, setStatus] = useState('');
  const pager = usePager();
  const logs = useLoad(() => app.requestLogs({ method, status, cursor: pager.cursor }), [app, method, status, pager.cursor], 5000);

  return (
    <main>
      <h1>Request logs</h1>
      <div class="card inline" role="search" aria-label="Filter request logs">
        <label for="log-method">Method</label>
        <select id="log-method" value={method} onChange={(e) => { setMethod(e.currentTarget.value); pager.reset(); }}>
          <option value="">Any</option>
          {['GET', 'POST', 'PATCH', 'PUT', 'DELETE'].map((m) => <option key={m} value={m}>{m}</option>)}
        </select>
        <label for="log-status">Status</label>
        <input id="log-status" inputMode="numeric" size={4} value={status} onChange={(e) => { setStatus(e.currentTarget.value.trim()); pager.reset(); }} />
      </div>
      <section aria-labelledby="logs-heading" aria-busy={logs.loading}>
        <h2 id="logs-heading" class="sr-only">Requests</h2>
        {logs.error && <p role="alert" class="error">{logs.error}</p>}
        {logs.loading && !logs.data && <p class="muted">Loading…</p>}
        {logs.data && logs.data.data.length === 0 && <p class="muted">No requests logged yet.</p>}
        <ul class="rows">
          {logs.data?.data.map((l) => (
            <li key={l.id}>
              <span class={`status ${l.status < 400 ? 'ok' : 'bad'}`}>{l.status}</span>
              <code>{l.method} {l.path}</code>
              <span class="muted">{l.duration_ms} ms</span>
              <span class="muted">{formatDate(l.created_at)}</span>
              <code class="muted">{l.request_id}</code>
            </li>
          ))}
        </ul>
        <Pager pager={pager} nextCursor={logs.data?.next_cursor} />
      </section>
    </main>
  );
}
