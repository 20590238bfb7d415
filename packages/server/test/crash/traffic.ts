/**
 * Traffic for the tests that kill server processes under load: intents paid in full, over or in
 * parts (sometimes with a wrong asset), and refunds of whatever is refundable. Errors are expected
 * (the server dies under it); the tests check what the database holds afterwards.
 */
import type { Sql } from '../../src/db/sql.js';
import { value } from '../helpers/raw-sql.js';
import { unrecordedPayments, type ChainReader } from './invariants.js';

export const CRASH_KEY = 'sk_test_crashTestSecret000000000001';
export const SETTLEMENT_ADDRESS = 'GDVEU3DD4KOFECV66VIHWEZOYX4ZKR3WV27L464SIIPOU2IUI3JCZA57';

/** Where requests go: one server, or a proxy in front of several. */
export interface Target {
  url: string;
}

export async function call(target: Target, method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(target.url + path, {
    method, headers: { authorization: `Bearer ${CRASH_KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json().catch(() => null), headers: res.headers };
}

/** One intent's worth of traffic: full, over, or split payments, sometimes a wrong asset. */
export async function oneIntent(target: Target, n: number): Promise<void> {
  const intent = (await call(target, 'POST', '/v1/funding-intents', { amount: '25', asset: 'USDC', reference: `r${n}` })).body;
  // with the deposit pool empty (a clocked ledger fills it in the background) the address comes a ledger later
  for (let i = 0; intent.status === 'CREATED' && i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    intent.status = (await call(target, 'GET', `/v1/funding-intents/${intent.id}`)).body?.status;
  }
  const pay = (amount: string, asset = 'USDC') => call(target, 'POST', `/v1/test_helpers/funding-intents/${intent.id}/payments`, { amount, asset });
  if (n % 3 === 0) await pay('25');
  if (n % 3 === 1) await pay('30');
  if (n % 3 === 2) { await pay('10'); await pay('15'); }
  if (n % 4 === 0) await pay('2', 'FAKE');
}

export async function refundWhatIsRefundable(target: Target): Promise<void> {
  const payments = (await call(target, 'GET', '/v1/payments?limit=100')).body?.data ?? [];
  await Promise.allSettled(payments.filter((p: any) => p.refundable_amount !== '0.0000000')
    .map((p: any) => call(target, 'POST', `/v1/funding-intents/${p.funding_intent_id}/payments/${p.id}/refunds`, { reason: p.failure?.code ?? 'OVERPAYMENT' })));
}

/** `lanes` loops of intents and refunds until `stop()` says so (or forever: until the server dies). */
export async function traffic(target: Target, firstN: number, lanes: number, stop: () => boolean = () => false): Promise<void> {
  let n = firstN;
  const lane = async () => {
    while (!stop()) {
      await oneIntent(target, n++);
      await refundWhatIsRefundable(target);
    }
  };
  await Promise.allSettled(Array.from({ length: lanes }, lane));
}

/** Work the pipeline has not finished: intents, payments, settlements and refunds in flight. */
export async function busy(sql: Sql): Promise<number> {
  return Number(await value(sql, `SELECT
    (SELECT COUNT(*) FROM funding_intents WHERE status IN ('PAYMENT_DETECTED', 'PAYMENT_CONFIRMED', 'ROUTING', 'SETTLING', 'SETTLED', 'REFUND_PENDING'))
    + (SELECT COUNT(*) FROM payments WHERE status = 'DETECTED')
    + (SELECT COUNT(*) FROM settlements WHERE status IN ('PENDING', 'SUBMITTED'))
    + (SELECT COUNT(*) FROM refunds WHERE status IN ('PENDING', 'PROCESSING')) AS n`));
}

/** Waits until nothing is in flight; `why` says what the servers printed if it never ends. */
export async function settle(sql: Sql, timeoutMs: number, why: () => string = () => '', chain?: ChainReader): Promise<void> {
  const until = Date.now() + timeoutMs;
  // payments on chain but not observed yet (a payment sent through a process that does not hold
  // the pipeline lease is found by the holder's next pass) are work in flight too
  const left = async () => (await busy(sql)) || unrecordedPayments(sql, chain);
  for (let n = await left(); n > 0; n = await left()) {
    if (Date.now() > until) throw new Error(`work left after restart: ${n}; ${why()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
