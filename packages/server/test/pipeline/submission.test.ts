/**
 * The treasury's submission engine on the sandbox network, over its Stellar RPC as a server
 * reaches it: batching under Stellar's limits, channel accounts, a batch split around a failing
 * operation, crash recovery from a stored envelope, and — on a ledger that keeps time, closed by
 * the test with sandbox_closeLedger — several transactions in one ledger.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Asset, Keypair, Operation } from '@stellar/stellar-sdk';
import { SubmissionEngine, type BuildSpec, type TxOutcome } from '../../src/pipeline/tx.js';
import { channelKeypair } from '../../src/pipeline/submission/channels.js';
import { closeWhilePending, fundedAccount, startSandbox, stroops, type Sandbox } from '../stellar/helpers.js';

let sb: Sandbox;
let stopClock: (() => void) | null = null;
afterEach(async () => {
  stopClock?.();
  stopClock = null;
  await sb.close();
});

const pay = (destination: string, amount = '1'): BuildSpec => ({
  operations: [Operation.payment({ destination, asset: Asset.native(), amount })],
});

async function xlm(address: string): Promise<bigint> {
  const account = await sb.horizon.loadAccount(address);
  return stroops(account.balances.find((b) => b.asset_type === 'native')!.balance);
}

function engine(options: { channels?: number; maxBatchItems?: number } = {}) {
  return new SubmissionEngine(sb.network, sb.treasury, { channels: options.channels ?? 4, pollMs: 20, ...(options.maxBatchItems ? { maxBatchItems: options.maxBatchItems } : {}) });
}

describe('the treasury submission engine', () => {
  it('batches concurrent work into few transactions over channel accounts; every item lands once', async () => {
    sb = await startSandbox();
    const e = engine({ channels: 2 });
    const dest = (await fundedAccount(sb)).publicKey();
    const before = await xlm(dest);
    const saved: string[] = [];
    const outs = await Promise.all(Array.from({ length: 30 }, () => e.run(null, () => pay(dest), (env) => { saved.push(env); })));
    expect(outs.every((o) => o.successful)).toBe(true);
    expect(await xlm(dest)).toBe(before + 30n * 10_000_000n);
    const hashes = new Set(outs.map((o) => o.hash));
    expect(hashes.size).toBeLessThan(30);
    expect(saved).toHaveLength(30);
    // Channels are the transactions' sources; the treasury only the operations'.
    const tx = await sb.horizon.transactions().transaction(outs[0]!.hash).call();
    expect([channelKeypair(sb.treasury, 0).publicKey(), channelKeypair(sb.treasury, 1).publicKey()]).toContain(tx.source_account);
    const ops = await sb.horizon.operations().forTransaction(tx.hash).call();
    expect(ops.records.every((o) => o.source_account === sb.treasury.publicKey())).toBe(true);
  });

  it('carries at most FUNDKIT_TREASURY_BATCH_ITEMS items a transaction (1: one at a time)', async () => {
    sb = await startSandbox();
    const e = engine({ channels: 1, maxBatchItems: 1 });
    const dest = (await fundedAccount(sb)).publicKey();
    const outs = await Promise.all(Array.from({ length: 5 }, () => e.run(null, () => pay(dest), () => undefined)));
    expect(new Set(outs.map((o) => o.hash)).size).toBe(5);
  });

  it('keeps each transaction within 20 signatures: items with their own signers are spread', async () => {
    sb = await startSandbox();
    const e = engine({ channels: 1 });
    const deposits = await Promise.all(Array.from({ length: 25 }, () => fundedAccount(sb, '10')));
    const dest = sb.treasury.publicKey();
    const outs = await Promise.all(deposits.map((d) => e.run(null, () => ({
      operations: [Operation.payment({ source: d.publicKey(), destination: dest, asset: Asset.native(), amount: '1' })], signers: [d],
    }), () => undefined)));
    expect(outs.every((o) => o.successful)).toBe(true);
    const byHash = new Map<string, number>();
    for (const o of outs) byHash.set(o.hash, (byHash.get(o.hash) ?? 0) + 1);
    expect(byHash.size).toBeGreaterThanOrEqual(2);
    for (const hash of byHash.keys()) {
      const tx = await sb.horizon.transactions().transaction(hash).call();
      expect(tx.signatures.length).toBeLessThanOrEqual(20);
    }
  });

  it('splits a batch around a failing operation: that item fails, the others land exactly once', async () => {
    sb = await startSandbox();
    const e = engine({ channels: 1 });
    const good = (await fundedAccount(sb)).publicKey();
    const before = await xlm(good);
    const nowhere = Keypair.random().publicKey();
    const specs = [pay(good), pay(nowhere), pay(good), pay(good)];
    const outs = await Promise.all(specs.map((s) => e.run(null, () => s, () => undefined)));
    expect(outs.map((o) => o.successful)).toEqual([true, false, true, true]);
    expect(outs[1]!.code).toBe('tx_failed: op_no_destination');
    expect(await xlm(good)).toBe(before + 3n * 10_000_000n);
  });

  it('after a crash, a stored envelope is found on chain or resubmitted unchanged: never paid twice', async () => {
    sb = await startSandbox();
    const dest = (await fundedAccount(sb)).publicKey();
    const before = await xlm(dest);
    // A first engine stores an envelope and "crashes" before submitting: build it by hand the same way.
    let stored = '';
    const first = engine({ channels: 1 });
    const out = await first.run(null, () => pay(dest, '5'), (env) => { stored = env; });
    expect(out.successful).toBe(true);
    // A restarted engine given the stored envelope finds it applied and does not pay again.
    const again = await engine({ channels: 1 }).run(stored, () => pay(dest, '5'), () => { throw new Error('must not rebuild'); });
    expect(again).toMatchObject({ successful: true, hash: out.hash });
    expect(await xlm(dest)).toBe(before + 50_000_000n);
  });

  it('resubmits a stored envelope that never reached the network, unchanged', async () => {
    sb = await startSandbox({ ledgerSeconds: 3600 });
    stopClock = closeWhilePending(sb);
    const dest = (await fundedAccount(sb)).publicKey();
    const before = await xlm(dest);
    const e = engine({ channels: 1 });
    await e.channels.ensure();
    // Stored, never submitted: the envelope a batch would have built.
    const { buildBatch } = await import('../../src/pipeline/submission/batch.js');
    const channel = e.channels.channels[0]!;
    const seq = await e.channels.nextSequence(channel);
    const built = buildBatch([pay(dest, '7')], channel.keypair, seq, sb.treasury, sb.passphrase);
    const restarted = engine({ channels: 1 });
    const out: TxOutcome = await restarted.run(built.envelope, () => pay(dest, '7'), () => { throw new Error('must not rebuild'); });
    expect(out).toMatchObject({ successful: true, hash: built.hash });
    expect(await xlm(dest)).toBe(before + 70_000_000n);
  });

  it('gives up waiting for a transaction that never lands (a stopped ledger), so its job can retry from the stored envelope', async () => {
    sb = await startSandbox({ ledgerSeconds: 3600 });
    const e = new SubmissionEngine(sb.network, sb.treasury, { channels: 1, pollMs: 10, giveUpMs: 300 });
    const stopCloser = closeWhilePending(sb);
    await e.channels.ensure();
    stopCloser();
    let stored = '';
    const dest = (await fundedAccount(sb)).publicKey();
    await expect(e.run(null, () => pay(dest), (env) => { stored = env; })).rejects.toThrow(/not in a ledger/);
    // the ledger closes again: the retry finds the same envelope applied, paid once
    await sb.rpc('sandbox_closeLedger');
    const out = await e.run(stored, () => pay(dest), () => { throw new Error('must not rebuild'); });
    expect(out.successful).toBe(true);
  });

  it('on a ledger that keeps time, work arriving while channels are busy lands in the same ledger over several', async () => {
    sb = await startSandbox({ ledgerSeconds: 3600 });
    const e = engine({ channels: 4 });
    const stopCloser = closeWhilePending(sb);
    await e.channels.ensure();
    stopCloser();
    const dest = (await fundedAccount(sb)).publicKey();
    const runs: Array<Promise<TxOutcome>> = [];
    for (let i = 0; i < 3; i++) {
      runs.push(e.run(null, () => pay(dest, String(i + 1)), () => undefined));
      await expect.poll(async () => (await sb.rpc<{ count: number }>('sandbox_getPending')).count).toBe(i + 1);
    }
    const ledger = (await sb.rpc<{ sequence: number }>('sandbox_closeLedger')).sequence;
    const outs = await Promise.all(runs);
    expect(outs.map((o) => o.ledger)).toEqual([ledger, ledger, ledger]);
    const txs = await sb.horizon.transactions().forLedger(ledger).call();
    expect(new Set(txs.records.map((t) => t.source_account)).size).toBe(3);
  });
});
