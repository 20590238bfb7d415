import { useState } from 'preact/hooks';
import type { AppApi } from '../app-api.js';
import { formatDate } from '../format.js';
import { Pager, usePager } from '../pager.js';
import { href } from '../router.js';
import { useLoad } from '../use-load.js';

const TYPES = ['payment.pending', 'payment.processing', 'payment.completed', 'payment.failed', 'refund.created', 'refund.completed', 'refund.failed', 'webhook.test'];

/** Events newest first, by type; each opens its data. Polled every 5 s. */
export function EventsPage({ app }: { app: AppApi }) {
  const [type, setType] = useState('');
  const pager = usePager();
  const events = useLoad(() => app.events({ type, cursor: pager.cursor }), [app, type, pager.cursor], 5000);

  return (
    <main>
      <h1>Events</h1>
      <div class="card inline" role="search" aria-label="Filter events">
        <label for="event-type">Type</label>
        <select id="event-type" value={type} onChange={(e) => { setType(e.currentTarget.value); pager.reset(); }}>
          <option value="">Any</option>
          {TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
      </div>
      <section aria-labelledby="events-heading" aria-busy={events.loading}>
        <h2 id="events-heading" class="sr-only">Event list</h2>
        {events.error && <p role="alert" class="error">{events.error}</p>}
        {events.loading && !events.data && <p class="muted">Loading…</p>}
        {events.data && events.data.data.length === 0 && <p class="muted">No events yet.</p>}
        <ul class="rows">
          {events.data?.data.map((e) => (
            <li key={e.id}>
              <details>
                <summary>{e.type} · {formatDate(e.created_at)}</summary>
                <pre>{JSON.stringify(e.data, null, 2)}</pre>
              </details>
              {typeof e.data.funding_intent_id === 'string' && <a href={href('intent', e.data.funding_intent_id)}>Intent</a>}
            </li>
          ))}
        </ul>
        <Pager pager={pager} nextCursor={events.data?.next_cursor} />
      </section>
    </main>
  );
}
