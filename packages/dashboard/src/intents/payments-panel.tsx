import type { AppApi, Intent, Payment, Refund } from '../app-api.js';
import { transactionUrl } from '../explorer.js';
import { formatAmount, formatDate } from '../format.js';
import { useLoad } from '../use-load.js';
import { RefundForm } from './refund-form.js';
import { Status } from './status.js';

/** What arrived for the intent, each payment with its refunds and a form to refund it. */
export function PaymentsPanel({ app, intent }: { app: AppApi; intent: Intent }) {
  // keyed on the intent's update time: a new payment or refund changes it
  const payments = useLoad(() => app.payments(intent.id), [app, intent.id, intent.updated_at]);
  const refunds = useLoad(() => app.refunds(intent.id), [app, intent.id, intent.updated_at], 3000);

  return (
    <section class="card" aria-labelledby="payments-heading" aria-busy={payments.loading}>
      <h2 id="payments-heading">Payments</h2>
      {payments.error && <p role="alert" class="error">{payments.error}</p>}
      {payments.loading && !payments.data && <p class="muted">Loading…</p>}
      {payments.data && payments.data.data.length === 0 && <p class="muted">No payment yet.</p>}
      {payments.data?.data.map((payment) => (
        <PaymentRow key={payment.id} app={app} payment={payment} refunds={(refunds.data?.data ?? []).filter((r) => r.payment_id === payment.id)} onRefunded={refunds.reload} />
      ))}
    </section>
  );
}

function PaymentRow({ app, payment, refunds, onRefunded }: { app: AppApi; payment: Payment; refunds: Refund[]; onRefunded: () => void }) {
  return (
    <article class="payment" aria-label={`Payment ${payment.id}`}>
      <dl class="facts">
        <dt>Payment</dt><dd><code>{payment.id}</code> <Status value={payment.status} /></dd>
        <dt>Amount</dt><dd>{formatAmount(payment.amount, payment.asset)}</dd>
        <dt>From</dt><dd><code>{payment.payer_address}</code></dd>
        <dt>Detected</dt><dd>{formatDate(payment.detected_at)}</dd>
        <dt>Transaction</dt><dd><a href={transactionUrl(payment.stellar_network, payment.transaction_hash)} target="_blank" rel="noopener">View on explorer</a></dd>
      </dl>
      <h3>Refunds</h3>
      {refunds.length === 0 ? <p class="muted">No refunds.</p> : (
        <ul class="rows" aria-label="Refunds">
          {refunds.map((r) => (
            <li key={r.id}>
              <span>Refund {formatAmount(r.amount, r.asset)}</span>
              <Status value={r.status} />
              <span>{r.reason}</span>
              <span class="muted">{formatDate(r.created_at)}</span>
              {r.transaction_hash && <a href={transactionUrl(payment.stellar_network, r.transaction_hash)} target="_blank" rel="noopener">Transaction</a>}
              {r.failure?.message && <span class="error">{r.failure.message}</span>}
            </li>
          ))}
        </ul>
      )}
      <RefundForm app={app} payment={payment} onRefunded={onRefunded} />
    </article>
  );
}
