import type { AppApi } from '../app-api.js';
import { formatAmount, formatDate } from '../format.js';
import { href } from '../router.js';
import { useLoad } from '../use-load.js';
import { PaymentsPanel } from './payments-panel.js';
import { SettlementPanel } from './settlement-panel.js';
import { Status } from './status.js';
import { TestHelpers } from './test-helpers.js';
import { Timeline, timelineOf } from './timeline.js';

/** One intent: what it asks, where to pay, what arrived, refunds, settlement and its history. */
export function IntentPage({ app, intentId }: { app: AppApi; intentId: string }) {
  // polled: a payment, settlement or refund moves the intent on its own
  const intent = useLoad(() => app.intent(intentId), [app, intentId], 3000);
  const events = useLoad(() => app.events({ limit: '100' }), [app, intentId], 3000);
  const it = intent.data;

  return (
    <main aria-busy={intent.loading}>
      <p><a href={href('intents')}>← All intents</a></p>
      <h1>Funding intent <code>{intentId}</code></h1>
      {intent.error && <p role="alert" class="error">{intent.error}</p>}
      {intent.loading && !it && <p class="muted">Loading…</p>}
      {it && (
        <>
          <section class="card" aria-labelledby="summary-heading">
            <h2 id="summary-heading">Summary</h2>
            <dl class="facts">
              <dt>Status</dt><dd><Status value={it.status} /></dd>
              <dt>Amount</dt><dd>{formatAmount(it.requirement.amount, it.requirement.asset)}</dd>
              <dt>Received</dt><dd>{it.received_amount ? formatAmount(it.received_amount, it.requirement.asset) : '—'}</dd>
              <dt>Reference</dt><dd>{it.reference ?? '—'}</dd>
              <dt>Deposit account</dt><dd>{it.deposit_account?.address ? <code>{it.deposit_account.address}</code> : `being created (${it.deposit_account?.status ?? 'none'})`}</dd>
              <dt>Created</dt><dd>{formatDate(it.created_at)}</dd>
              <dt>Expires</dt><dd>{formatDate(it.expires_at)}</dd>
              {it.failure && <><dt>Failure</dt><dd>{it.failure.message ?? it.failure.code}</dd></>}
            </dl>
          </section>
          {app.mode === 'test' && <TestHelpers app={app} intent={it} onDone={intent.reload} />}
          <Timeline steps={timelineOf(it, events.data?.data ?? [])} />
          <PaymentsPanel app={app} intent={it} />
          <SettlementPanel settlement={it.settlement} />
        </>
      )}
    </main>
  );
}
