/**
 * The sandbox ledger on a clock (FUNDKIT_SANDBOX_LEDGER_SECONDS > 0), through the real
 * stellar-sdk and Horizon's HTTP answers: transactions wait for the close, one per source
 * account, a ledger takes at most its operation limit, time bounds are checked at the close,
 * POST /transactions_async answers at once, and streams emit when the ledger closes. Most tests
 * step the clock by hand (closeNow) on a ledger whose own timer would wait an hour.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Asset, Operation, xdr, type Horizon } from '@stellar/stellar-sdk';
import type { HorizonPaymentRecord } from '../../src/index.js';
import { buildTx, fundedAccount, startSandbox, type Sandbox } from './helpers.js';

let sb: Sandbox;
/** the other servers' sandboxes of a test on one database */
const others: Sandbox[] = [];
afterEach(async () => {
  for (const other of others.splice(0)) await other.close();
  await sb.close();
});

const HOUR = 3600;

async function postAsync(envelope: string) {
  const res = await fetch(`${sb.url}/transactions_async`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `tx=${encodeURIComponent(envelope)}`,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const pay = (to: string, amount = '1') => Operation.payment({ destination: to, asset: Asset.native(), amount });

/** Settles once the promise has settled: lets a test see that a submit is still waiting. */
function watch<T>(promise: Promise<T>) {
  const state = { done: false, value: undefined as T | undefined, error: undefined as unknown };
  promise.then((v) => { state.done = true; state.value = v; }, (e: unknown) => { state.done = true; state.error = e; });
  return state;
}

const tick = () => new Promise((r) => setTimeout(r, 50));

describe('a sandbox ledger that keeps real time', () => {
  it('answers POST /transactions at the close, with every waiting transaction in the same ledger', async () => {
    sb = await startSandbox(undefined, { ledgerSeconds: HOUR });
    const [alice, bob] = [await fundedAccount(sb), await fundedAccount(sb)];
    const before = await sb.ledger.ledgerSequence();
    // one after the other: the ledger orders them as it admitted them
    const a = watch(sb.horizon.submitTransaction(await buildTx(sb, alice, [pay(bob.publicKey())])));
    await expect.poll(() => sb.ledger.clock!.pendingCount()).toBe(1);
    const b = watch(sb.horizon.submitTransaction(await buildTx(sb, bob, [pay(alice.publicKey())])));
    await expect.poll(() => sb.ledger.clock!.pendingCount()).toBe(2);
    await tick();
    expect([a.done, b.done]).toEqual([false, false]);
    const closed = await sb.ledger.closeNow();
    await expect.poll(() => a.done && b.done).toBe(true);
    expect(closed).toBe(before + 1);
    const ra = a.value as Horizon.HorizonApi.SubmitTransactionResponse;
    const rb = b.value as Horizon.HorizonApi.SubmitTransactionResponse;
    expect([ra.ledger, rb.ledger]).toEqual([closed, closed]);
    // Two transactions of one ledger: consecutive paging tokens (TOID order 1 and 2).
    const txs = await sb.horizon.transactions().forLedger(closed).call();
    expect(txs.records.map((t) => t.hash)).toEqual([ra.hash, rb.hash]);
    expect(BigInt(txs.records[1]!.paging_token) - BigInt(txs.records[0]!.paging_token)).toBe(4096n);
    const ledger = await sb.horizon.ledgers().ledger(closed).call() as unknown as Horizon.ServerApi.LedgerRecord;
    expect(ledger.successful_transaction_count).toBe(2);
  });

  it('takes one transaction per source account until the close: the next is TRY_AGAIN_LATER', async () => {
    sb = await startSandbox(undefined, { ledgerSeconds: HOUR });
    const [alice, bob] = [await fundedAccount(sb), await fundedAccount(sb)];
    const first = await buildTx(sb, alice, [pay(bob.publicKey(), '1')]);
    const accepted = await postAsync(first.toXDR());
    expect(accepted).toEqual({ status: 201, body: { tx_status: 'PENDING', status: 201, hash: Buffer.from(first.hash()).toString('hex') } });
    expect(await postAsync(first.toXDR())).toMatchObject({ status: 409, body: { tx_status: 'DUPLICATE' } });
    const second = await buildTx(sb, alice, [pay(bob.publicKey(), '2')]);
    expect(await postAsync(second.toXDR())).toMatchObject({ status: 503, body: { tx_status: 'TRY_AGAIN_LATER' } });
    const sync = await sb.horizon.submitTransaction(second).catch((e: { response: { status: number; data: { type: string } } }) => e.response);
    expect(sync).toMatchObject({ status: 503, data: { type: 'https://stellar.org/horizon-errors/service_unavailable' } });
    await sb.ledger.closeNow();
    expect((await sb.horizon.transactions().transaction(Buffer.from(first.hash()).toString('hex')).call()).successful).toBe(true);
    // After the close the account takes its next transaction.
    const third = await buildTx(sb, alice, [pay(bob.publicKey(), '3')]);
    expect(third.sequence).toBe((BigInt(first.sequence) + 1n).toString());
    expect((await postAsync(third.toXDR())).status).toBe(201);
  });

  it('refuses a sequence gap at once with Horizon\'s ERROR and the txBAD_SEQ result', async () => {
    sb = await startSandbox(undefined, { ledgerSeconds: HOUR });
    const alice = await fundedAccount(sb);
    const gap = await buildTx(sb, alice, [pay(alice.publicKey())]);
    // (SDK 17's XDR values are immutable: the envelope is rebuilt with the gapped sequence number.)
    const v1 = xdr.expectUnionVariant(gap.toEnvelope(), 'envelopeTypeTx').v1;
    const gapped = xdr.TransactionEnvelope.envelopeTypeTx(new xdr.TransactionV1Envelope({
      tx: new xdr.Transaction({ ...v1.tx, seqNum: BigInt(gap.sequence) + 5n }), signatures: v1.signatures,
    }));
    const res = await postAsync(gapped.toXdr('base64'));
    expect(res.status).toBe(400);
    expect(res.body.tx_status).toBe('ERROR');
    const result = xdr.TransactionResult.fromXdr(res.body.errorResultXdr as string, 'base64');
    expect(result.result.type).toBe('txBadSeq');
    expect(await sb.ledger.clock!.pendingCount()).toBe(0);
  });

  it('applies at most FUNDKIT_SANDBOX_LEDGER_MAX_OPS operations a ledger; the rest wait for the next close', async () => {
    sb = await startSandbox(undefined, { ledgerSeconds: HOUR, maxOpsPerLedger: 4 });
    const payers = [await fundedAccount(sb), await fundedAccount(sb), await fundedAccount(sb)];
    const sink = (await fundedAccount(sb)).publicKey();
    const subs: Array<ReturnType<typeof watch<unknown>>> = [];
    for (const p of payers) {
      subs.push(watch(sb.horizon.submitTransaction(await buildTx(sb, p, [pay(sink), pay(sink)]))));
      await expect.poll(() => sb.ledger.clock!.pendingCount()).toBe(subs.length);
    }
    const first = await sb.ledger.closeNow();
    await expect.poll(() => subs.filter((s) => s.done).length).toBe(2);
    expect(subs[2]!.done).toBe(false);
    const second = await sb.ledger.closeNow();
    await expect.poll(() => subs[2]!.done).toBe(true);
    const ledgers = subs.map((s) => (s.value as Horizon.HorizonApi.SubmitTransactionResponse).ledger);
    expect(ledgers).toEqual([first, first, second]);
  });

  it('checks time bounds at the close: a transaction that expired while waiting never applies', async () => {
    let now = Date.now();
    sb = await startSandbox(() => now, { ledgerSeconds: HOUR });
    const alice = await fundedAccount(sb);
    const tx = await buildTx(sb, alice, [pay(alice.publicKey())], { timeout: 5 });
    const pending = watch(sb.horizon.submitTransaction(tx));
    await expect.poll(() => sb.ledger.clock!.pendingCount()).toBe(1);
    now += 10_000;
    await sb.ledger.closeNow();
    await expect.poll(() => pending.done).toBe(true);
    const response = (pending.error as { response: { data: { extras: { result_codes: unknown } } } }).response;
    expect(response.data.extras.result_codes).toEqual({ transaction: 'tx_too_late' });
    await expect(sb.horizon.transactions().transaction(Buffer.from(tx.hash()).toString('hex')).call()).rejects.toThrow();
  });

  it('streams a payment when its ledger closes, not when it is submitted', async () => {
    sb = await startSandbox(undefined, { ledgerSeconds: HOUR });
    const [alice, bob] = [await fundedAccount(sb), await fundedAccount(sb)];
    const seen: string[] = [];
    // "now" fixed before the stream connects: one that connects late still replays what it missed
    const stop = sb.horizon.payments().forAccount(bob.publicKey()).cursor(String(await sb.ledger.nowToken()))
      .stream({ onmessage: (r) => { seen.push((r as unknown as { transaction_hash: string }).transaction_hash); } });
    try {
      await tick();
      const tx = await buildTx(sb, alice, [pay(bob.publicKey())]);
      expect((await postAsync(tx.toXDR())).body.tx_status).toBe('PENDING');
      await tick();
      expect(seen).toEqual([]);
      await sb.ledger.closeNow();
      await expect.poll(() => seen).toEqual([Buffer.from(tx.hash()).toString('hex')]);
    } finally {
      stop();
    }
  });

  it('closes ledgers on its own every N seconds, empty or not, and a waiting submit gets its ledger', async () => {
    sb = await startSandbox(undefined, { ledgerSeconds: 1 });
    sb.ledger.start();
    const alice = await fundedAccount(sb);
    const start = await sb.ledger.ledgerSequence();
    await expect.poll(() => sb.ledger.ledgerSequence(), { timeout: 3000 }).toBeGreaterThanOrEqual(start + 1);
    const res = await sb.horizon.submitTransaction(await buildTx(sb, alice, [pay(alice.publicKey())]));
    expect(res.ledger).toBeGreaterThan(start);
  });
});

describe('a sandbox ledger on a clock, shared by servers on one database', () => {
  const sharedFile = () => join(mkdtempSync(join(tmpdir(), 'fundkit-clock-')), 'sandbox.db');
  const another = async (file: string, seconds: number, now?: () => number) => {
    const other = await startSandbox(now, { ledgerSeconds: seconds }, file);
    others.push(other);
    return other;
  };

  it('is one network: a submit to one server waits for the close another makes, and each source has one transaction waiting across them', async () => {
    const file = sharedFile();
    sb = await startSandbox(undefined, { ledgerSeconds: HOUR }, file);
    const other = await another(file, HOUR);
    // both look at the shared ledger (every 250 ms at most); neither closes on its own during the test
    sb.ledger.start();
    other.ledger.start();
    const [alice, bob] = [await fundedAccount(sb), await fundedAccount(sb)];
    const heard: string[] = [];
    other.ledger.events.on('records', (records: HorizonPaymentRecord[]) => heard.push(...records.map((r) => r.transaction_hash)));

    const tx = await buildTx(sb, alice, [pay(bob.publicKey())]);
    const waiting = watch(other.horizon.submitTransaction(tx));
    await expect.poll(() => sb.ledger.clock!.pendingCount()).toBe(1);
    expect(await postAsync(tx.toXDR())).toMatchObject({ status: 409, body: { tx_status: 'DUPLICATE' } });
    const second = await buildTx(sb, alice, [pay(bob.publicKey(), '2')]);
    expect(await postAsync(second.toXDR())).toMatchObject({ status: 503, body: { tx_status: 'TRY_AGAIN_LATER' } });
    expect(waiting.done).toBe(false);

    const closed = await sb.ledger.closeNow();
    await expect.poll(() => waiting.done, { timeout: 3000 }).toBe(true);
    expect((waiting.value as Horizon.HorizonApi.SubmitTransactionResponse).ledger).toBe(closed);
    // the other server's streams hear of the payment as if it had closed the ledger itself
    await expect.poll(() => heard).toEqual([Buffer.from(tx.hash()).toString('hex')]);
    expect(await other.ledger.ledgerSequence()).toBe(closed);
  });

  it('answers a submit that another server\'s close refused (its time bounds passed while it waited) with the refusal', async () => {
    let now = Date.now();
    const file = sharedFile();
    sb = await startSandbox(() => now, { ledgerSeconds: HOUR }, file);
    const other = await another(file, HOUR, () => now);
    sb.ledger.start();
    other.ledger.start();
    const alice = await fundedAccount(sb);
    const tx = await buildTx(sb, alice, [pay(alice.publicKey())], { timeout: 5 });
    const pending = watch(other.horizon.submitTransaction(tx));
    await expect.poll(() => sb.ledger.clock!.pendingCount()).toBe(1);
    now += 10_000;
    await sb.ledger.closeNow();
    await expect.poll(() => pending.done, { timeout: 3000 }).toBe(true);
    const response = (pending.error as { response: { data: { extras: { result_codes: unknown } } } }).response;
    expect(response.data.extras.result_codes).toEqual({ transaction: 'tx_too_late' });
  });

  it('closes once a period, however many servers keep the clock', async () => {
    const file = sharedFile();
    sb = await startSandbox(undefined, { ledgerSeconds: 1 }, file);
    const servers = [sb, await another(file, 1), await another(file, 1)];
    for (const s of servers) s.ledger.start();
    const start = await sb.ledger.ledgerSequence();
    const startedAt = Date.now();
    await new Promise((r) => setTimeout(r, 3_300));
    // three clocks closing on their own would have made about 9 (the sleep may overrun on loaded cores)
    const closes = await sb.ledger.ledgerSequence() - start;
    expect(closes).toBeGreaterThanOrEqual(2);
    expect(closes).toBeLessThanOrEqual(Math.ceil((Date.now() - startedAt) / 1000) + 1);
  });
});
