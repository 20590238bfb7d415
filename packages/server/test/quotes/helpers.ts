import { randomUUID } from 'node:crypto';
import { sandboxRpc, type SandboxOffer } from '../helpers/sandbox-rpc.js';
import { KEYS, startTestServer, type TestServer } from '../helpers/server.js';
import { FAST_ENV } from '../pipeline/helpers.js';

export { createIntent, pay, waitFor, waitForIntent, history } from '../pipeline/helpers.js';
export const key = KEYS.alphaSecretTest;

/** A server whose sandbox runs in its thread, reached over HTTP (book() moves its market over RPC). */
export function startQuotesServer(env: Record<string, string> = {}): Promise<TestServer> {
  return startTestServer({ env: { ...FAST_ENV, ...env } });
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

/**
 * The sandbox's order book, moved through its test controls over RPC (sandbox_getOffers,
 * sandbox_setOfferPrice, sandbox_removeOffers, sandbox_addOffers), for tests that move the market.
 */
export function book(t: TestServer) {
  const usdcForXlm = { selling: 'USDC', buying: 'XLM' };
  return {
    /** offers that sell USDC for XLM (what an XLM payer's conversion crosses) */
    usdcForXlm: async () => (await sandboxRpc<{ offers: SandboxOffer[] }>(t, 'sandbox_getOffers', usdcForXlm)).offers,
    /** how many XLM one USDC costs, as n/d */
    setUsdcPrice: (n: number, d: number) => sandboxRpc(t, 'sandbox_setOfferPrice', { ...usdcForXlm, price: { n, d } }),
    drainUsdcForXlm: () => sandboxRpc(t, 'sandbox_removeOffers', usdcForXlm),
    refill: (offers: SandboxOffer[]) => sandboxRpc(t, 'sandbox_addOffers', { offers }),
  };
}

export async function execution(t: TestServer, intentId: string, done: (e: any) => boolean) {
  const { waitFor } = await import('../pipeline/helpers.js');
  return waitFor(async () => {
    const intent = await t.request('GET', `/v1/funding-intents/${intentId}`, { key });
    return intent.body.quote?.execution ?? null;
  }, (e) => e !== null && done(e));
}
