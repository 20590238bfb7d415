import { useState } from 'preact/hooks';
import type { AppApi, Intent } from '../app-api.js';
import { formatAmount } from '../format.js';
import { errorText } from '../use-load.js';

const OPEN = ['CREATED', 'AWAITING_PAYMENT', 'PARTIALLY_FUNDED'];

/** Test mode only: the sandbox's test helpers, so a whole flow can be tried without a wallet. */
export function TestHelpers({ app, intent, onDone }: { app: AppApi; intent: Intent; onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function run(label: string, action: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    setMessage(null);
    try {
      await action();
      setMessage(label);
      onDone();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  if (!OPEN.includes(intent.status)) return null;
  return (
    <section class="card test-tools" aria-labelledby="helpers-heading">
      <h2 id="helpers-heading">Test helpers</h2>
      <div class="inline">
        <button disabled={busy} onClick={() => run('Payment sent; the intent moves as it is observed.', () => app.testPay(intent))}>
          Pay {formatAmount(intent.requirement.amount, intent.requirement.asset)}
        </button>
        <button class="danger" disabled={busy} onClick={() => run('Intent expired.', () => app.testExpire(intent.id))}>Expire</button>
      </div>
      <p role="status">{busy ? 'Working…' : message ?? ''}</p>
      <p role="alert" class="error">{error ?? ''}</p>
    </section>
  );
}
