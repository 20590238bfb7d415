import type { Settlement } from '../app-api.js';
import { transactionUrl } from '../explorer.js';
import { formatAmount, formatDate } from '../format.js';
import { Status } from './status.js';

export function SettlementPanel({ settlement }: { settlement: Settlement | null }) {
  return (
    <section class="card" aria-labelledby="settlement-heading">
      <h2 id="settlement-heading">Settlement</h2>
      {!settlement ? <p class="muted">Not settled yet.</p> : (
        <dl class="facts">
          <dt>Status</dt><dd><Status value={settlement.status} /></dd>
          {settlement.destination.amount && <><dt>Amount</dt><dd>{formatAmount(settlement.destination.amount, settlement.destination.asset ?? '')}</dd></>}
          <dt>To</dt><dd><code>{settlement.destination.address ?? '—'}</code></dd>
          <dt>Confirmed</dt><dd>{formatDate(settlement.confirmed_at)}</dd>
          {settlement.transfer_transaction_hash && <><dt>Transfer</dt><dd><a href={transactionUrl(settlement.stellar_network, settlement.transfer_transaction_hash)} target="_blank" rel="noopener">View on explorer</a></dd></>}
        </dl>
      )}
    </section>
  );
}
