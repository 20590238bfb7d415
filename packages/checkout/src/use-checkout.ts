import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { createApi, type Api } from './api.js';
import { resolveCredentials, type Credentials } from './credentials.js';
import { awaitsPayment, isPreparing, nextRequoteAt, phaseOf } from './state.js';
import { CheckoutError, type CheckoutEvent, type CheckoutOptions, type FundingOption, type PublicFundingIntent } from './types.js';

export type Emit = (event: CheckoutEvent, payload: unknown) => void;

export interface CheckoutState {
  view: PublicFundingIntent | null;
  error: CheckoutError | null;
  api: Api | null;
  credentials: Credentials | null;
  /** null: options are not offered (publishable key, or the server has none) */
  options: FundingOption[] | null;
  note: 'requoting' | 'refreshed' | null;
  accepting: string | null;
  actionError: CheckoutError | null;
  retry(): void;
  accept(optionId: string): void;
}

function asError(error: unknown): CheckoutError {
  return error instanceof CheckoutError ? error : new CheckoutError(error instanceof Error ? error.message : String(error), 'unexpected', 0, true);
}

export function useCheckout(options: CheckoutOptions, fragmentToken: string | null, emit: Emit): CheckoutState {
  const [attempt, setAttempt] = useState(0);
  const [view, setView] = useState<PublicFundingIntent | null>(null);
  const [error, setError] = useState<CheckoutError | null>(null);
  const [api, setApi] = useState<Api | null>(null);
  const [credentials, setCredentials] = useState<Credentials | null>(null);
  const fail = useFail(options, emit, setError);
  // the fragment token is single use: a retry must not exchange it again
  const handoff = useRef(fragmentToken);

  useEffect(() => {
    let stop: (() => void) | undefined;
    let live = true;
    setError(null);
    (async () => {
      const creds = await resolveCredentials(options, handoff.current);
      handoff.current = null;
      const client = createApi(creds.baseUrl, creds.token);
      const first = await client.intent(creds.intentId);
      if (!live) return;
      setCredentials(creds);
      setApi(client);
      setView(first);
      emit('ready', first);
      stop = client.follow(creds.intentId, (next) => live && setView(next), (trouble) => live && fail(trouble));
    })().catch((e: unknown) => live && fail(asError(e)));
    return () => {
      live = false;
      stop?.();
    };
  }, [attempt]);

  useStatusCallbacks(view, options, emit);
  const quotes = useQuotes(api, credentials, view, setView);
  return { view, error, api, credentials, ...quotes, retry: () => setAttempt((n) => n + 1) };
}

function useFail(options: CheckoutOptions, emit: Emit, setError: (e: CheckoutError) => void) {
  return useCallback((e: CheckoutError) => {
    setError(e);
    emit('error', e);
    options.onError?.(e);
  }, [options]);
}

/** onStatusChange on every change of status or amount; onComplete exactly once. */
function useStatusCallbacks(view: PublicFundingIntent | null, options: CheckoutOptions, emit: Emit): void {
  const completed = useRef(false);
  const key = view ? `${view.status}|${view.received_amount}|${view.remaining_amount}|${view.quote_id ?? ''}` : '';
  useEffect(() => {
    if (!view) return;
    emit('status', view);
    options.onStatusChange?.(view);
    const phase = phaseOf(view.status);
    if (!completed.current && phase.kind === 'step' && phase.step === 'done') {
      completed.current = true;
      emit('complete', view);
      options.onComplete?.(view);
    }
  }, [key]);
}

/** Options with re-quote on expiry, and acceptance (a lapsed quote re-prices instead of failing). */
function useQuotes(api: Api | null, credentials: Credentials | null, view: PublicFundingIntent | null, setView: (v: PublicFundingIntent) => void) {
  const [options, setOptions] = useState<FundingOption[] | null>(null);
  const [note, setNote] = useState<CheckoutState['note']>(null);
  const [accepting, setAccepting] = useState<string | null>(null);
  const [actionError, setActionError] = useState<CheckoutError | null>(null);
  const [round, setRound] = useState(0);
  // no options while the address is being prepared: the server prices only an intent that awaits payment
  const active = !!api && !!credentials?.sessionId && !!view && awaitsPayment(view.status) && !isPreparing(view);

  useEffect(() => {
    if (!active || !api || !credentials) return;
    let live = true;
    api.options(credentials.intentId).then(
      (result) => live && (setOptions(result.options), setNote((n) => (n === 'requoting' ? null : n))),
      // no options (not offered for this intent, or not served): the direct instructions stand
      () => live && setOptions(null),
    );
    return () => void (live = false);
  }, [active, round]);

  useEffect(() => {
    const at = options && nextRequoteAt(options);
    if (!active || at === null || at === undefined) return;
    const timer = setTimeout(() => (setNote('requoting'), setRound((r) => r + 1)), Math.max(0, at - Date.now()) + 250);
    return () => clearTimeout(timer);
  }, [options, active]);

  const accept = (optionId: string) => {
    if (!api || !credentials || accepting) return;
    setAccepting(optionId);
    setActionError(null);
    api.acceptQuote(optionId)
      .then(() => api.intent(credentials.intentId))
      .then(setView)
      .catch((e: unknown) => {
        const err = asError(e);
        if (err.code === 'quote_expired' || err.code === 'quote_not_selectable') {
          setNote('refreshed');
          setRound((r) => r + 1);
        } else setActionError(err);
        return null;
      })
      .finally(() => setAccepting(null));
  };
  return { options: active ? options : null, note, accepting, actionError, accept };
}
