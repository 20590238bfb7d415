import type { Translate } from '../i18n.js';
import { awaitsPayment, isPreparing, msLeft, phaseOf } from '../state.js';
import type { CheckoutOptions, PublicFundingIntent } from '../types.js';
import { useCheckout, type CheckoutState, type Emit } from '../use-checkout.js';
import { useNow } from '../use-now.js';
import type { WalletLoader } from '../wallet-loader.js';
import { AmountSummary } from './amount-summary.js';
import { Countdown } from './countdown.js';
import { DepositDetails } from './deposit-details.js';
import { EndState } from './end-state.js';
import { ErrorPanel } from './error-panel.js';
import { HandoffPanel } from './handoff-panel.js';
import { MerchantHeader } from './merchant-header.js';
import { Preparing } from './preparing.js';
import { PaymentOptions } from './payment-options.js';
import { StatusSteps } from './status-steps.js';
import { WalletButton } from './wallet-button.js';

export interface AppProps {
  options: CheckoutOptions;
  fragmentToken: string | null;
  emit: Emit;
  loadWallet: WalletLoader;
  t: Translate;
}

export function CheckoutApp(props: AppProps) {
  const state = useCheckout(props.options, props.fragmentToken, props.emit);
  const now = useNow();
  const { t } = props;
  if (!state.view) {
    return state.error ? <ErrorPanel error={state.error} onRetry={state.retry} t={t} /> : <p class="muted" role="status">{t('loading')}</p>;
  }
  return (
    <div>
      <MerchantHeader view={state.view} t={t} />
      <AmountSummary view={state.view} t={t} />
      <Body state={state} view={state.view} now={now} {...props} />
      {state.error && <ErrorPanel error={state.error} onRetry={state.retry} t={t} />}
    </div>
  );
}

function Body({ state, view, now, t, ...props }: AppProps & { state: CheckoutState; view: PublicFundingIntent; now: number }) {
  const phase = phaseOf(view.status);
  // the clock may run out before the server's expiry worker moves the intent
  const lapsed = awaitsPayment(view.status) && msLeft(view.expires_at, now) === 0;
  if (phase.kind !== 'step' || lapsed) return <EndState kind={lapsed ? 'expired' : (phase.kind as 'expired')} name={view.application.name} t={t} />;
  const paying = phase.step === 'awaiting';
  return (
    <>
      <StatusSteps step={phase.step} t={t} />
      {phase.step === 'done' && <EndState kind="done" name={view.application.name} t={t} />}
      {paying && <Paying state={state} view={view} now={now} t={t} {...props} />}
    </>
  );
}

function Paying({ state, view, now, t, loadWallet, options }: AppProps & { state: CheckoutState; view: PublicFundingIntent; now: number }) {
  const sessionId = state.credentials?.sessionId;
  const pageUrl = options.handoffUrl ?? (typeof location === 'undefined' ? '' : location.href);
  if (isPreparing(view)) return <Preparing t={t} />;
  return (
    <>
      <p class="muted" style="margin-top:12px"><Countdown until={view.expires_at} now={now} t={t} /></p>
      {state.options && (
        <PaymentOptions options={state.options} view={view} now={now} note={state.note} accepting={state.accepting} onPick={state.accept} t={t} />
      )}
      {state.actionError && <p class="muted" role="alert">{state.actionError.message}</p>}
      <DepositDetails view={view} t={t} />
      <WalletButton view={view} baseUrl={state.credentials?.baseUrl ?? ''} loadWallet={loadWallet} t={t} />
      <hr />
      {state.api && sessionId && <HandoffPanel api={state.api} sessionId={sessionId} pageUrl={pageUrl} now={now} t={t} />}
    </>
  );
}
