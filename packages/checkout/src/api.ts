import { createSseParser } from './sse.js';
import { CheckoutError, type CheckoutErrorBody, type FundingOptions, type Handoff, type PublicFundingIntent, type Quote } from './types.js';

/** The only module that talks to the network (wallet submission aside, which the Stellar SDK does). */
export interface Api {
  intent(id: string): Promise<PublicFundingIntent>;
  options(id: string): Promise<FundingOptions>;
  acceptQuote(quoteId: string): Promise<Quote>;
  handoff(sessionId: string): Promise<Handoff>;
  /** live status: SSE, reconnecting, then polling when streaming keeps failing; returns a stopper */
  follow(id: string, onView: (view: PublicFundingIntent) => void, onTrouble: (error: CheckoutError) => void): () => void;
}

const POLL_MS = 3000;
const MAX_STREAM_FAILURES = 3;

async function toError(response: Response): Promise<CheckoutError> {
  let body: { error?: Partial<CheckoutErrorBody> } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // not JSON: a proxy or a missing route; fall through to the status text
  }
  const e = body.error ?? {};
  const retryable = e.retryable ?? (response.status >= 500 || response.status === 429);
  return new CheckoutError(e.message ?? `request failed (${response.status})`, e.code ?? `http_${response.status}`, response.status, retryable, e.request_id);
}

function networkError(cause: unknown): CheckoutError {
  return new CheckoutError(cause instanceof Error ? cause.message : 'network error', 'network_error', 0, true);
}

export function createApi(baseUrl: string, credential: string): Api {
  const root = baseUrl.replace(/\/+$/, '');
  const headers = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${credential}`, ...extra });

  async function call<T>(method: string, path: string, extra?: Record<string, string>, body?: string): Promise<T> {
    let response: Response;
    try {
      response = await fetch(root + path, { method, headers: headers(extra), ...(body === undefined ? {} : { body }) });
    } catch (cause) {
      throw networkError(cause);
    }
    if (!response.ok) throw await toError(response);
    return (await response.json()) as T;
  }

  const post = <T>(path: string, idempotencyKey: string, body?: object) =>
    call<T>('POST', path, { 'idempotency-key': idempotencyKey, ...(body ? { 'content-type': 'application/json' } : {}) }, body && JSON.stringify(body));

  return {
    intent: (id) => call('GET', `/v1/public/funding-intents/${encodeURIComponent(id)}`),
    options: (id) => call('GET', `/v1/funding_intents/${encodeURIComponent(id)}/options`),
    // one key per quote: a retried accept of the same quote replays instead of failing
    acceptQuote: (quoteId) => post(`/v1/quotes/${encodeURIComponent(quoteId)}/accept`, `fk_accept_${quoteId}`),
    handoff: (sessionId) => post(`/v1/checkout_sessions/${encodeURIComponent(sessionId)}/handoff`, `fk_handoff_${randomKey()}`, {}),
    follow: (id, onView, onTrouble) => follow(root, headers(), id, onView, onTrouble, () => call<PublicFundingIntent>('GET', `/v1/public/funding-intents/${encodeURIComponent(id)}/status`)),
  };
}

function randomKey(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** fetch-based SSE (EventSource cannot send Authorization), with a polling fallback. */
function follow(
  root: string,
  headers: Record<string, string>,
  id: string,
  onView: (view: PublicFundingIntent) => void,
  onTrouble: (error: CheckoutError) => void,
  pollOnce: () => Promise<PublicFundingIntent>,
): () => void {
  const abort = new AbortController();
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const url = `${root}/v1/public/funding-intents/${encodeURIComponent(id)}/status`;

  const poll = async (): Promise<void> => {
    if (abort.signal.aborted) return;
    try {
      onView(await pollOnce());
    } catch (error) {
      onTrouble(error as CheckoutError);
    }
    timer = setTimeout(() => void poll(), POLL_MS);
  };

  const stream = async (): Promise<void> => {
    try {
      const response = await fetch(url, { headers: { ...headers, accept: 'text/event-stream' }, signal: abort.signal });
      if (!response.ok) throw await toError(response);
      if (!response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) throw new Error('no event stream');
      await readStream(response.body, (view) => {
        failures = 0;
        onView(view);
      });
      // the server ended the stream (restart, proxy timeout): reconnect
    } catch (error) {
      if (abort.signal.aborted) return;
      if (error instanceof CheckoutError && !error.retryable) return onTrouble(error);
      failures += 1;
    }
    if (abort.signal.aborted) return;
    if (failures >= MAX_STREAM_FAILURES) return void poll();
    timer = setTimeout(() => void stream(), 500 * 2 ** failures);
  };

  void stream();
  return () => {
    abort.abort();
    clearTimeout(timer);
  };
}

async function readStream(body: ReadableStream<Uint8Array>, onView: (view: PublicFundingIntent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parse = createSseParser();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    for (const event of parse(decoder.decode(value, { stream: true }))) {
      if (event.event === 'status') onView(JSON.parse(event.data) as PublicFundingIntent);
    }
  }
}
