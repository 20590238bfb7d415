import { loadConfig } from '../../src/config.js';
import type { SandboxLink } from '../../src/stellar/sandbox/link.js';
import { startSandboxThread } from '../../src/stellar/sandbox/thread.js';
import { createServer, type FundkitServer, type ServerOptions } from '../../src/index.js';
import type { BootstrapFile } from '../../src/bootstrap.js';
import { checkResponse } from '../../src/spec/contract.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';

/** Keys of the default bootstrap: application Alpha (test and live) and Beta (test). */
export const KEYS = {
  alphaSecretTest: 'sk_test_alphaSecretTest0000000000001',
  alphaSecretLive: 'sk_live_alphaSecretLive0000000000001',
  alphaPublishableTest: 'pk_test_alphaPublishableTest00000001',
  alphaPublishableLive: 'pk_live_alphaPublishableLive00000001',
  betaSecretTest: 'sk_test_betaSecretTest00000000000001',
} as const;

export const OPERATOR_KEY = 'op_test_operator_key_0123456789abcdef';
/** A valid Stellar account (checksum included). */
export const SETTLEMENT_ADDRESS = 'GDVEU3DD4KOFECV66VIHWEZOYX4ZKR3WV27L464SIIPOU2IUI3JCZA57';

export const DEFAULT_BOOTSTRAP: BootstrapFile = {
  applications: [
    {
      name: 'Alpha',
      secret_keys: [KEYS.alphaSecretTest, KEYS.alphaSecretLive],
      publishable_keys: [KEYS.alphaPublishableTest, KEYS.alphaPublishableLive],
      settlement_address: SETTLEMENT_ADDRESS,
    },
    { name: 'Beta', secret_keys: [KEYS.betaSecretTest] },
  ],
};

export interface RequestOptions {
  /** bearer credential */
  key?: string;
  /** JSON-encoded unless a string or Buffer (sent as is) */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestResponse<T = any> {
  status: number;
  headers: Record<string, string>;
  body: T;
  text: string;
}

export interface TestServer {
  url: string;
  /** lines the server logged (JSON), for tests that read what it prints (verification links) */
  logs: Record<string, unknown>[];
  server: FundkitServer;
  /** an HTTP request over the real socket; every response is checked against the spec */
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  /** every contract problem seen so far (request() also throws on the first) */
  violations: string[];
  close(): Promise<void>;
}

export interface TestServerOptions extends Omit<ServerOptions, 'env'> {
  /** null: no bootstrap, as `pnpm start` (with a FUNDKIT_DB file, the sandbox application) */
  bootstrap?: BootstrapFile | null;
  env?: Record<string, string | undefined>;
}

function encodeBody(body: unknown): { payload?: string | Buffer; json: boolean } {
  if (body === undefined) return { json: false };
  if (typeof body === 'string' || Buffer.isBuffer(body)) return { payload: body, json: false };
  return { payload: JSON.stringify(body), json: true };
}

/** The run's bundle of the thread's entry (sandbox-thread-global.ts); outside vitest (crash-server.ts) the package's own. */
async function bundledEntry(): Promise<string | undefined> {
  return process.env.VITEST ? (await import('vitest')).inject('sandboxThreadEntry') : undefined;
}

/**
 * The sandbox network the test servers of this test process share, one per ledger setting, each
 * in its own thread and reached over HTTP, as servers share testnet (a thread a server would cost
 * every test a second of start-up). A test that names FUNDKIT_SANDBOX_NETWORK gets what it names.
 */
async function sharedSandbox(env: Record<string, string | undefined>): Promise<SandboxLink | null> {
  if (env.FUNDKIT_SANDBOX_NETWORK || (env.FUNDKIT_STELLAR && env.FUNDKIT_STELLAR !== 'sandbox')) return null;
  const config = loadConfig({ ...env, FUNDKIT_DB: ':memory:' });
  const key = JSON.stringify([config.sandboxLedgerSeconds, config.sandboxLedgerMaxOps, config.sandboxRates]);
  const shared = ((globalThis as { fundkitTestSandboxes?: Map<string, Promise<SandboxLink>> }).fundkitTestSandboxes ??= new Map());
  if (!shared.has(key)) {
    const started = startSandboxThread({
      dbPath: ':memory:', ledgerSeconds: config.sandboxLedgerSeconds, maxOpsPerLedger: config.sandboxLedgerMaxOps, rates: config.sandboxRates,
    }, (error) => {
      // a throw here would land in the worker's event handler, failing no test by name: the tests
      // using this thread fail on their own requests; the next server starts another
      console.error('[test sandbox] the shared sandbox thread failed; the next test server starts another', error);
      shared.delete(key);
    }, { unref: true, entry: await bundledEntry() });
    shared.set(key, started);
    started.catch(() => shared.delete(key));
  }
  return shared.get(key)!;
}

/**
 * A real server on an ephemeral port with an in-memory database. Contract checking is on for every
 * response: an undocumented status, a missing X-Request-ID or a body off the schema fails the test.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const logs: Record<string, unknown>[] = [];
  const sandbox = options.sandbox ?? await sharedSandbox(options.env ?? {});
  const server = await createServer({
    ...options,
    ...(sandbox ? { sandbox } : {}),
    env: {
      FUNDKIT_DB: ':memory:',
      // FUNDKIT_TEST_ENGINE=postgres: the same test on a fresh PostgreSQL database of the run's cluster
      // (imported only then: postgres.ts needs vitest, and crash-server.ts runs outside it)
      ...(process.env.FUNDKIT_TEST_ENGINE === 'postgres' && !options.env?.FUNDKIT_DATABASE_URL
        ? { FUNDKIT_DATABASE_URL: await (await import('./postgres.js')).freshPostgresDatabase('server') } : {}),
      // logos and other files go to a fresh directory, never into the working tree
      FUNDKIT_DATA_DIR: mkdtempSync(join(tmpdir(), 'fundkit-test-')),
      FUNDKIT_OPERATOR_KEY: OPERATOR_KEY,
      LOG_LEVEL: 'silent',
      ...options.env,
    },
    bootstrap: options.bootstrap === null ? null : options.bootstrap ?? DEFAULT_BOOTSTRAP,
    logger: options.logger ?? pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) }),
  });
  const { url } = await server.listen(0, '127.0.0.1');
  const violations: string[] = [];

  async function request<T>(method: string, path: string, { key, body, headers = {} }: RequestOptions = {}): Promise<TestResponse<T>> {
    const { payload, json } = encodeBody(body);
    const response = await fetch(url + path, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(json ? { 'content-type': 'application/json' } : {}), ...headers },
      body: Buffer.isBuffer(payload) ? new Uint8Array(payload) : payload,
    });
    const text = await response.text();
    const responseHeaders = Object.fromEntries(response.headers.entries());
    const isJson = (responseHeaders['content-type'] ?? '').includes('json');
    const parsed = isJson && text ? JSON.parse(text) : text === '' ? undefined : text;
    if (method.toUpperCase() !== 'OPTIONS') {
      const problems = checkResponse(server.context.spec, server.context.validator, { method, path, status: response.status, headers: responseHeaders, body: parsed });
      if (problems.length > 0) {
        violations.push(...problems);
        throw new Error(`contract violation for ${method} ${path} → ${response.status}:\n  ${problems.join('\n  ')}\nbody: ${text.slice(0, 2000)}`);
      }
    }
    return { status: response.status, headers: responseHeaders, body: parsed as T, text };
  }

  return { url, logs, server, request, violations, close: () => server.close() };
}
