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

const IN_FLIGHT = {
  intents: "SELECT COUNT(*) FROM funding_intents WHERE status IN ('PAYMENT_DETECTED', 'PAYMENT_CONFIRMED', 'ROUTING', 'SETTLING', 'SETTLED', 'REFUND_PENDING')",
  payments: "SELECT COUNT(*) FROM payments WHERE status = 'DETECTED'",
  settlements: "SELECT COUNT(*) FROM settlements WHERE status IN ('PENDING', 'SUBMITTED')",
  refunds: "SELECT COUNT(*) FROM refunds WHERE status IN ('PENDING', 'PROCESSING')",
};

/** Work the pipeline has not finished, by kind: intents, payments, settlements and refunds in flight. */
async function inFlight(sql: Sql): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [kind, query] of Object.entries(IN_FLIGHT)) counts[kind] = Number(await value(sql, query));
  return counts;
}

/** Work the pipeline has not finished: intents, payments, settlements and refunds in flight. */
export async function busy(sql: Sql): Promise<number> {
  // one query a poll (settle polls every 50 ms); the breakdown is read only for a failure's message
  return Number(await value(sql, `SELECT ${Object.values(IN_FLIGHT).map((q) => `(${q})`).join(' + ')} AS n`));
}

/**
 * Waits until nothing is in flight. It gives up when the work left has not moved for `stallMs`
 * (the pipeline stopped: what the rule names) or after `capMs` in all; a busy machine only makes it
 * slower, and a slow catch-up is not a lost payment. `why` says what the servers printed.
 */
export async function settle(sql: Sql, stallMs: number, why: () => string = () => '', chain?: ChainReader, capMs = 240_000): Promise<void> {
  const cap = Date.now() + capMs;
  // payments on chain but not observed yet (a payment sent through a process that does not hold
  // the pipeline lease is found by the holder's next pass) are work in flight too
  const left = async () => (await busy(sql)) || unrecordedPayments(sql, chain);
  let last = Number.NaN;
  let movedAt = Date.now();
  for (let n = await left(); n > 0; n = await left()) {
    if (n !== last) { last = n; movedAt = Date.now(); }
    if (Date.now() - movedAt > stallMs || Date.now() > cap) {
      const counts = { ...await inFlight(sql), unrecordedPayments: await unrecordedPayments(sql, chain) };
      const stalled = Date.now() - movedAt > stallMs ? `unchanged for ${stallMs} ms` : `still moving after ${capMs} ms`;
      throw new Error(`work left after restart: ${n}, ${stalled} (${JSON.stringify(counts)}); ${why()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
