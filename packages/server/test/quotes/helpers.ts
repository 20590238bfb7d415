import { rows, run } from '../helpers/raw-sql.js';
import { randomUUID } from 'node:crypto';
import { KEYS, startTestServer, type TestServer } from '../helpers/server.js';
import { FAST_ENV, IN_PROCESS } from '../pipeline/helpers.js';

export { createIntent, pay, waitFor, waitForIntent, history } from '../pipeline/helpers.js';
export const key = KEYS.alphaSecretTest;

export function startQuotesServer(env: Record<string, string> = {}): Promise<TestServer> {
  return startTestServer({ env: { ...FAST_ENV, ...IN_PROCESS, ...env } });
}

export const idem = () => ({ 'idempotency-key': `k-${randomUUID()}` });

export async function options(t: TestServer, intentId: string, credential: string = key) {
  return t.request('GET', `/v1/funding_intents/${intentId}/options`, { key: credential });
}

export async function optionFor(t: TestServer, intentId: string, asset: string) {
  const res = await options(t, intentId);
  if (res.status !== 200) throw new Error(`options failed: ${res.status} ${res.text}`);
  const option = res.body.options.find((o: any) => o.source.asset === asset);
  if (!option) throw new Error(`no ${asset} option: ${res.text}`);
  return option;
}

export function accept(t: TestServer, quoteId: string, credential: string = key, headers: Record<string, string> = idem()) {
  return t.request('POST', `/v1/quotes/${quoteId}/accept`, { key: credential, headers });
}

export async function session(t: TestServer, intentId: string): Promise<string> {
  const res = await t.request('POST', '/v1/checkout_sessions', { key, body: { funding_intent_id: intentId }, headers: idem() });
  if (res.status !== 201) throw new Error(`session failed: ${res.status} ${res.text}`);
  return res.body.session_token;
}

/** The embedded ledger's order book, for tests that move the market. */
export function book(t: TestServer) {
  const ledger = t.server.services.pipeline.pipeline.stellar!.ledger!;
  const usdc = 'USDC:GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5';
  const { sql } = t.server;
  return {
    /** offers that sell USDC for XLM (what an XLM payer's conversion crosses) */
    usdcForXlm: () => rows(sql, "SELECT * FROM sbx_offers WHERE selling = ? AND buying = 'native'", usdc),
    /** how many XLM one USDC costs, as n/d */
    setUsdcPrice: (n: number, d: number) => run(sql, "UPDATE sbx_offers SET price_n = ?, price_d = ? WHERE selling = ? AND buying = 'native'", String(n), String(d), usdc),
    drainUsdcForXlm: () => run(sql, "DELETE FROM sbx_offers WHERE selling = ? AND buying = 'native'", usdc),
    refill: async (offers: Record<string, unknown>[]) => {
      for (const row of offers) {
        const cols = Object.keys(row);
        await run(sql, `INSERT INTO sbx_offers (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`, ...Object.values(row));
      }
    },
  };
}

export async function execution(t: TestServer, intentId: string, done: (e: any) => boolean) {
  const { waitFor } = await import('../pipeline/helpers.js');
  return waitFor(async () => {
    const intent = await t.request('GET', `/v1/funding-intents/${intentId}`, { key });
    return intent.body.quote?.execution ?? null;
  }, (e) => e !== null && done(e));
}
