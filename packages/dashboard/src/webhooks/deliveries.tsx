import { useState } from 'preact/hooks';
import type { AppApi, Delivery, Endpoint } from '../app-api.js';
import { Status } from '../intents/status.js';
import { formatDate } from '../format.js';
import { Pager, usePager } from '../pager.js';
import { errorText, useLoad } from '../use-load.js';

/** One endpoint's deliveries with every attempt (status code or error), and resend. */
export function Deliveries({ app, endpoint }: { app: AppApi; endpoint: Endpoint }) {
  const pager = usePager();
  const deliveries = useLoad(() => app.deliveries(endpoint.id, pager.cursor), [app, endpoint.id, pager.cursor], 3000);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);

  async function resend(delivery: Delivery) {
    setError(null);
    try {
      await app.redeliver(endpoint.id, delivery.id);
      setNote(`Resend of ${delivery.event_type} queued.`);
      deliveries.reload();
    } catch (err) {
      setError(errorText(err));
    }
  }

  return (
    <section class="card" aria-labelledby="deliveries-heading" aria-busy={deliveries.loading}>
      <h2 id="deliveries-heading">Deliveries to {endpoint.url}</h2>
      <p role="status">{note ?? ''}</p>
      <p role="alert" class="error">{error ?? deliveries.error ?? ''}</p>
      {deliveries.loading && !deliveries.data && <p class="muted">Loading…</p>}
      {deliveries.data && deliveries.data.data.length === 0 && <p class="muted">No deliveries yet.</p>}
      <ul class="rows">
        {deliveries.data?.data.map((d) => (
          <li key={d.id} class="delivery">
            <span>{d.event_type}</span>
            <Status value={d.status} />
            <span class="muted">{formatDate(d.created_at)}</span>
            {d.next_attempt_at && <span class="muted">next attempt {formatDate(d.next_attempt_at)}</span>}
            <button aria-label={`Resend ${d.event_type} ${d.id}`} onClick={() => resend(d)}>Resend</button>
            <ol class="attempts" aria-label="Attempts">
              {d.attempts.map((a) => (
                <li key={a.number}>
                  Attempt {a.number}: {a.status_code !== null ? `HTTP ${a.status_code}` : a.error ?? 'no answer'}
                  {a.latency_ms !== null && ` in ${a.latency_ms} ms`} · {formatDate(a.attempted_at)}
                </li>
              ))}
            </ol>
          </li>
        ))}
      </ul>
      <Pager pager={pager} nextCursor={deliveries.data?.next_cursor} />
    </section>
  );
}
