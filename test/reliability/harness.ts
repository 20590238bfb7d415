/**
 * Shared set-up of the reliability suite: a reference server with two applications in both
 * environments, every kind of credential, and a request function that checks each response
 * against the spec but collects problems instead of throwing (a fuzzer wants them all).
 */
import type { BootstrapFile } from '../../packages/server/src/bootstrap.js';
import { checkResponse } from '../../packages/server/src/spec/contract.js';
import type { Operation } from '../../packages/server/src/spec/operations.js';
import { OPERATOR_KEY, SETTLEMENT_ADDRESS, startTestServer, type TestServer, type TestServerOptions } from '../../packages/server/test/helpers/server.js';

export { OPERATOR_KEY };

export const KEYS = {
  alpha: {
    test: { secret: 'sk_test_relAlphaSecretTest000000001', publishable: 'pk_test_relAlphaPublishTest00000001' },
    live: { secret: 'sk_live_relAlphaSecretLive000000001', publishable: 'pk_live_relAlphaPublishLive00000001' },
  },
  beta: {
    test: { secret: 'sk_test_relBetaSecretTest0000000001', publishable: 'pk_test_relBetaPublishTest000000001' },
    live: { secret: 'sk_live_relBetaSecretLive0000000001', publishable: 'pk_live_relBetaPublishLive000000001' },
  },
} as const;

export type AppName = keyof typeof KEYS;
export type Env = 'test' | 'live';

export const BOOTSTRAP: BootstrapFile = {
  applications: (['alpha', 'beta'] as const).map((name) => ({
    name,
    secret_keys: [KEYS[name].test.secret, KEYS[name].live.secret],
    publishable_keys: [KEYS[name].test.publishable, KEYS[name].live.publishable],
    settlement_address: SETTLEMENT_ADDRESS,
  })),
};

/** Worker loops tick fast so payments settle within a test's bound. */
export const FAST_ENV = { FUNDKIT_WORKER_INTERVAL_MS: '20', FUNDKIT_BACKFILL_INTERVAL_MS: '100', FUNDKIT_WORKER_BACKOFF_MS: '20', FUNDKIT_RATE_LIMIT: '100000' };

export function startServer(env: Record<string, string> = {}, options: Omit<TestServerOptions, 'env' | 'bootstrap'> = {}): Promise<TestServer> {
  return startTestServer({ ...options, bootstrap: BOOTSTRAP, env: { ...FAST_ENV, ...env } });
}

export interface Sent {
  method: string;
  path: string;
  key?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Got {
  status: number;
  headers: Record<string, string>;
  body: any;
  text: string;
  /** contract and envelope problems of this response */
  problems: string[];
}

/** The error envelope each operation must answer in (DESIGN §7). */
export function envelopeProblems(op: Operation | undefined, status: number, body: any): string[] {
  if (status < 400 || !op || typeof body !== 'object' || body === null) return [];
  const error = body.error ?? {};
  if (op.errorEnvelope === 'checkout') {
    const ok = typeof error.type === 'string' && typeof error.request_id === 'string' && error.code === String(error.code).toLowerCase();
    return ok ? [] : [`${op.operationId} ${status}: expected the checkout error envelope, got ${JSON.stringify(body).slice(0, 200)}`];
  }
  const ok = typeof error.requestId === 'string' && /^[A-Z_]+$/.test(String(error.code));
  return ok ? [] : [`${op.operationId} ${status}: expected the application error envelope, got ${JSON.stringify(body).slice(0, 200)}`];
}

/** One HTTP request; the response is checked against the spec and its envelope, problems returned. */
export async function send(t: TestServer, req: Sent, op?: Operation): Promise<Got> {
  const json = req.body !== undefined && typeof req.body !== 'string';
  const response = await fetch(t.url + req.path, {
    method: req.method,
    headers: { ...(req.key !== undefined ? { authorization: `Bearer ${req.key}` } : {}), ...(json ? { 'content-type': 'application/json' } : {}), ...req.headers },
    body: req.body === undefined ? undefined : json ? JSON.stringify(req.body) : (req.body as string),
  });
  const text = await response.text();
  const headers = Object.fromEntries(response.headers.entries());
  let body: any = text === '' ? undefined : text;
  if ((headers['content-type'] ?? '').includes('json') && text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  // the path as it went over the wire: URL resolution turns a "." or ".." segment into another route,
  // and Express (non-strict routing) serves "/x/" as "/x"
  const sent = new URL(t.url + req.path);
  const wire = sent.pathname.replace(/(.)\/$/, '$1') + sent.search;
  const problems = checkResponse(t.server.context.spec, t.server.context.validator, { method: req.method, path: wire, status: response.status, headers, body });
  problems.push(...envelopeProblems(wire === req.path ? op : undefined, response.status, body));
  // a 503 with a documented "unavailable" code is a designed answer (live mode has no network in the sandbox), not a crash
  const designed = response.status === 503 && /_UNAVAILABLE$/i.test(String(body?.error?.code ?? ''));
  if (response.status >= 500 && !designed) problems.push(`${req.method} ${req.path} → ${response.status}`);
  return { status: response.status, headers, body, text, problems };
}

/** Sends and throws unless the status is the expected one (set-up steps). */
export async function must(t: TestServer, req: Sent, status: number): Promise<any> {
  const got = await send(t, req);
  if (got.status !== status || got.problems.length > 0) {
    throw new Error(`${req.method} ${req.path} → ${got.status} (wanted ${status}) ${got.problems.join('; ')} ${got.text.slice(0, 500)}`);
  }
  return got.body;
}

let counter = 0;
export const idem = (): string => `rel-${process.pid}-${Date.now()}-${++counter}`;

/** An account session: sign up, follow the verification link the server logs, sign in. */
export async function accountSession(t: TestServer, email: string): Promise<string> {
  const password = 'correct horse battery staple';
  await must(t, { method: 'POST', path: '/v1/auth/sign-up', body: { email, password } }, 201);
  const line = t.logs.find((l) => l.email === email && typeof l.verify_url === 'string');
  const token = new URL(String(line!.verify_url)).searchParams.get('token');
  await must(t, { method: 'POST', path: '/v1/auth/verify-email', body: { token } }, 200);
  return (await must(t, { method: 'POST', path: '/v1/auth/sign-in', body: { email, password } }, 200)).token;
}

export async function createIntent(t: TestServer, key: string, body: Record<string, unknown> = {}): Promise<any> {
  return must(t, { method: 'POST', path: '/v1/funding-intents', key, body: { amount: '25.00', asset: 'USDC', ...body } }, 201);
}

export async function checkoutSession(t: TestServer, key: string, intentId: string): Promise<any> {
  return must(t, { method: 'POST', path: '/v1/checkout_sessions', key, body: { funding_intent_id: intentId }, headers: { 'idempotency-key': idem() } }, 201);
}

export async function pay(t: TestServer, key: string, intentId: string, amount: string, asset = 'USDC'): Promise<any> {
  return must(t, { method: 'POST', path: `/v1/test_helpers/funding-intents/${intentId}/payments`, key, body: { amount, asset } }, 201);
}

export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Fills a spec path template ({id}) with values. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? 'x'));
}
