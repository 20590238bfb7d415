import { useState } from 'preact/hooks';
import type { AppApi, Intent } from '../app-api.js';
import { formatAmount, formatDate } from '../format.js';
import { Pager, usePager } from '../pager.js';
import { href } from '../router.js';
import { useLoad } from '../use-load.js';
import { Status } from './status.js';

const STATUSES = ['CREATED', 'AWAITING_PAYMENT', 'PARTIALLY_FUNDED', 'PAYMENT_DETECTED', 'PAYMENT_CONFIRMED', 'ROUTING', 'SETTLING', 'SETTLED', 'CREDITED', 'FAILED', 'REFUND_PENDING', 'REFUNDED', 'EXPIRED', 'CANCELLED'];

/** The API filters by status and reference; it has no date filter, so dates filter the page shown. */
function inDates(intent: Intent, from: string, to: string): boolean {
  const day = intent.created_at.slice(0, 10);
  return (!from || day >= from) && (!to || day <= to);
}

/** Funding intents, newest first, polled every 5 s so new and paid intents show up by themselves. */
export function IntentsPage({ app }: { app: AppApi }) {
  const [status, setStatus] = useState('');
  const [reference, setReference] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [wanted, setWanted] = useState('');
  const pager = usePager();
  const intents = useLoad(() => app.listIntents({ status, reference: reference.trim(), cursor: pager.cursor }), [app, status, reference, pager.cursor], 5000);
  const rows = intents.data?.data.filter((i) => inDates(i, from, to)) ?? [];
  const filter = (set: (v: string) => void) => (e: Event) => {
    set((e.currentTarget as HTMLInputElement).value);
    pager.reset();
  };

  return (
    <main>
      <h1>Funding intents</h1>
      <form class="card inline filters" role="search" aria-label="Find an intent by id" onSubmit={(e) => {
        e.preventDefault();
        // an id goes straight to its page (a pasted link's last segment works too)
        const id = wanted.trim().split('/').pop() ?? '';
        if (id) location.hash = href('intent', id);
      }}>
        <span>
          <label for="f-id">Intent id</label>
          <input id="f-id" placeholder="fi_…" value={wanted} onInput={(e) => setWanted(e.currentTarget.value)} />
        </span>
        <button type="submit">Open</button>
      </form>
      <form class="card inline filters" role="search" aria-label="Filter intents" onSubmit={(e) => e.preventDefault()}>
        <span>
          <label for="f-status">Status</label>
          <select id="f-status" value={status} onChange={filter(setStatus)}>
            <option value="">Any</option>
            {STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        </span>
        <span>
          <label for="f-ref">Reference</label>
          <input id="f-ref" value={reference} onChange={filter(setReference)} />
        </span>
        <span>
          <label for="f-from">Created from</label>
          <input id="f-from" type="date" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
        </span>
        <span>
          <label for="f-to">Created to</label>
          <input id="f-to" type="date" value={to} onChange={(e) => setTo(e.currentTarget.value)} />
        </span>
      </form>
      <section aria-labelledby="intents-heading" aria-busy={intents.loading}>
        <h2 id="intents-heading" class="sr-only">Intents</h2>
        {intents.error && <p role="alert" class="error">{intents.error}</p>}
        {intents.loading && !intents.data && <p class="muted">Loading…</p>}
        {intents.data && rows.length === 0 && <p class="muted">No funding intents{status || reference || from || to ? ' match these filters' : ' yet: create one with the API or the SDK'}.</p>}
        <ul class="rows">
          {rows.map((intent) => (
            <li key={intent.id}>
              <a href={href('intent', intent.id)}>{formatAmount(intent.requirement.amount, intent.requirement.asset)}</a>
              <Status value={intent.status} />
              <span>{intent.reference ?? <span class="muted">no reference</span>}</span>
              <a href={href('intent', intent.id)}><code>{intent.id}</code></a>
              <span class="muted">{formatDate(intent.created_at)}</span>
            </li>
          ))}
        </ul>
        <Pager pager={pager} nextCursor={intents.data?.next_cursor} />
      </section>
    </main>
  );
}
