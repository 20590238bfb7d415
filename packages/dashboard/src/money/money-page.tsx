import type { AppApi } from '../app-api.js';
import { transactionUrl } from '../explorer.js';
import { Status } from '../intents/status.js';
import { formatAmount, formatDate } from '../format.js';
import { Pager, usePager } from '../pager.js';
import { href } from '../router.js';
import { useLoad } from '../use-load.js';

/** Ledger balances per asset, then settlements and ledger entries, newest first. */
export function MoneyPage({ app }: { app: AppApi }) {
  const balances = useLoad(() => app.balances(), [app], 10000);
  const pager = usePager();
  const settlements = useLoad(() => app.settlements(pager.cursor), [app, pager.cursor], 10000);
  const entryPager = usePager();
  const entries = useLoad(() => app.entries({ cursor: entryPager.cursor }), [app, entryPager.cursor], 10000);

  return (
    <main>
      <h1>Balances and settlements</h1>
      <section class="card" aria-labelledby="balances-heading" aria-busy={balances.loading}>
        <h2 id="balances-heading">Ledger balances</h2>
        {balances.error && <p role="alert" class="error">{balances.error}</p>}
        {balances.loading && !balances.data && <p class="muted">Loading…</p>}
        {balances.data && balances.data.data.length === 0 && <p class="muted">No balance yet.</p>}
        <table>
          <thead><tr><th scope="col">Asset</th><th scope="col">Available</th><th scope="col">Pending</th></tr></thead>
          <tbody>
            {balances.data?.data.map((b) => (
              <tr key={b.asset}><th scope="row">{b.asset}</th><td>{formatAmount(b.available, b.asset)}</td><td>{formatAmount(b.pending, b.asset)}</td></tr>
            ))}
          </tbody>
        </table>
      </section>
      <section class="card" aria-labelledby="settlements-heading" aria-busy={settlements.loading}>
        <h2 id="settlements-heading">Settlements</h2>
        {settlements.error && <p role="alert" class="error">{settlements.error}</p>}
        {settlements.loading && !settlements.data && <p class="muted">Loading…</p>}
        {settlements.data && settlements.data.data.length === 0 && <p class="muted">No settlements yet.</p>}
        <ul class="rows">
          {settlements.data?.data.map((s) => (
            <li key={s.id}>
              <Status value={s.status} />
              {s.destination.amount && <span>{formatAmount(s.destination.amount, s.destination.asset ?? '')}</span>}
              <a href={href('intent', s.funding_intent_id)}>{s.funding_intent_id}</a>
              <span class="muted">{formatDate(s.confirmed_at ?? s.created_at)}</span>
              {s.transaction_hash && <a href={transactionUrl(s.stellar_network, s.transaction_hash)} target="_blank" rel="noopener">Transaction</a>}
            </li>
          ))}
        </ul>
        <Pager pager={pager} nextCursor={settlements.data?.next_cursor} />
      </section>
      <section class="card" aria-labelledby="entries-heading" aria-busy={entries.loading}>
        <h2 id="entries-heading">Ledger entries</h2>
        {entries.error && <p role="alert" class="error">{entries.error}</p>}
        {entries.loading && !entries.data && <p class="muted">Loading…</p>}
        {entries.data && entries.data.data.length === 0 && <p class="muted">No entries yet.</p>}
        <ul class="rows">
          {entries.data?.data.map((e) => (
            <li key={e.id}>
              <span>{e.direction === 'CREDIT' ? '+' : '−'}{formatAmount(e.amount, e.asset)}</span>
              <span>{e.type}</span>
              <span class="muted">{e.description}</span>
              <span class="muted">{formatDate(e.created_at)}</span>
            </li>
          ))}
        </ul>
        <Pager pager={entryPager} nextCursor={entries.data?.next_cursor} />
      </section>
    </main>
  );
}
