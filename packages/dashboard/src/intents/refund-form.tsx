import { useState } from 'preact/hooks';
import type { AppApi, Payment } from '../app-api.js';
import { formatAmount } from '../format.js';
import { errorText } from '../use-load.js';

const REASONS = ['OVERPAYMENT', 'UNDERPAYMENT', 'WRONG_ASSET', 'EXPIRED_INTENT', 'DUPLICATE_PAYMENT', 'MANUAL'];

/**
 * Refund a payment. The API refunds what is refundable (it takes no amount), so the amount is
 * shown, not asked; the destination defaults to the payer. The API's error is shown as it is.
 */
export function RefundForm({ app, payment, onRefunded }: { app: AppApi; payment: Payment; onRefunded: () => void }) {
  const [reason, setReason] = useState('OVERPAYMENT');
  const [destination, setDestination] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const idp = payment.id;
  // "0.0000000" or none: nothing refundable but by reason MANUAL (a refund from the balance, which
  // the API takes at any refundable amount), so for other reasons the button would only earn a refusal
  const nothingLeft = (!payment.refundable_amount || /^0*(\.0*)?$/.test(payment.refundable_amount)) && reason !== 'MANUAL';

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await app.refund(payment.funding_intent_id, payment.id, { reason, ...(destination.trim() ? { destination_address: destination.trim() } : {}) });
      setDestination('');
      onRefunded();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="refund" onSubmit={submit} aria-label={`Refund payment ${payment.id}`}>
      <p>Refundable: {payment.refundable_amount ? formatAmount(payment.refundable_amount, payment.asset) : '—'}</p>
      <label for={`reason-${idp}`}>Refund reason</label>
      <select id={`reason-${idp}`} value={reason} onChange={(e) => setReason(e.currentTarget.value)}>
        {REASONS.map((r) => <option key={r} value={r}>{r}</option>)}
      </select>
      <label for={`dest-${idp}`}>Refund to (optional, default the payer)</label>
      <input id={`dest-${idp}`} placeholder="G…" value={destination} onInput={(e) => setDestination(e.currentTarget.value)} />
      <p role="alert" class="error">{error ?? ''}</p>
      {nothingLeft && <p class="muted">Nothing left to refund for this reason; reason MANUAL refunds from your balance.</p>}
      <button type="submit" disabled={busy || nothingLeft}>Refund payment</button>
    </form>
  );
}
