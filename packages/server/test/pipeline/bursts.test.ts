/**
 * A burst of payments moves through the pipeline side by side, not one at a time. Confirmation
 * needs no request (the follower read each payment from a closed ledger), and each settlement's
 * opening waits for the writer: one at a time, a burst paid in one ledger was confirmed and opened
 * over several more (on PostgreSQL, 24 payments took up to 10 ledgers of 1 s to settle).
 * Each test holds one step at a gate and counts who reaches it: one at a time, the count stays 1.
 */
import { TransactionBuilder } from '@stellar/stellar-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { createIntent, pay, startPipelineServer, waitFor, waitForIntent } from './helpers.js';

const BURST = 4;

let t: TestServer;
beforeAll(async () => {
  t = await startPipelineServer();
});
afterAll(() => t.close());

/**
 * Holds calls of `target[method]` until released: those whose arguments `before` picks, before
 * they run, or those whose result `after` picks, once they ran. Counts the calls held.
 */
function gate<T extends object>(target: T, method: keyof T & string, pick: { before?: (args: unknown[]) => boolean; after?: (result: any) => boolean }) {
  const original = (target as any)[method] as (...args: unknown[]) => Promise<unknown>;
  const held: unknown[][] = [];
  let release!: () => void;
  const open = new Promise<void>((resolve) => { release = resolve; });
  const hold = async (args: unknown[]) => {
    held.push(args);
    await open;
  };
  (target as any)[method] = async (...args: unknown[]) => {
    if (pick.before?.(args)) await hold(args);
    const result = await original.apply(target, args);
    if (pick.after?.(result)) await hold(args);
    return result;
  };
  return { held, release, restore: () => { release(); (target as any)[method] = original; } };
}

let restore: (() => void) | null = null;
afterEach(() => restore?.());

async function burst() {
  const intents = await Promise.all(Array.from({ length: BURST }, () => createIntent(t, { amount: '5.00' })));
  // the deposit pool refills behind the creates; its transactions are not what is counted
  await t.server.services.workers.drain();
  return intents;
}

describe('a burst of payments', () => {
  it('is confirmed without reading a payment back: the ledger follower read it from a closed ledger', async () => {
    const intents = await burst();
    const network = t.server.services.pipeline.pipeline.stellar!.network;
    const reads: string[] = [];
    // a submitter waits for its own transaction's ledger (over Stellar RPC, by getTransaction):
    // that is the payer's wait, not the pipeline reading the payment back
    const submitting = new Set<string>();
    const original = network.getTransaction.bind(network);
    const submit = network.submitTransaction.bind(network);
    network.getTransaction = async (hash: string) => {
      if (!submitting.has(hash)) reads.push(hash);
      return original(hash);
    };
    network.submitTransaction = async (envelope: string) => {
      const hash = Buffer.from(TransactionBuilder.fromXDR(envelope, network.passphrase).hash()).toString('hex');
      submitting.add(hash);
      try {
        return await submit(envelope);
      } finally {
        submitting.delete(hash);
      }
    };
    restore = () => {
      network.getTransaction = original;
      network.submitTransaction = submit;
    };
    const payments = await Promise.all(intents.map((i) => pay(t, i.id, '5.00')));
    await Promise.all(intents.map((i) => waitForIntent(t, i.id, (x) => x.status === 'CREDITED', 10_000)));
    // before the follower, each payment was read back (one request each, against Horizon's 3,600 an hour)
    expect(reads.filter((hash) => payments.some((p) => p.transaction_hash === hash))).toEqual([]);
  });

  it('has its settlements opened side by side', async () => {
    const intents = await burst();
    const settler = t.server.services.pipeline.pipeline.settler!;
    const ids = new Set(intents.map((i) => i.id));
    const opens = gate(settler, 'open', { before: (args) => ids.has((args[0] as { id: string }).id) });
    restore = opens.restore;
    await Promise.all(intents.map((i) => pay(t, i.id, '5.00')));
    await waitFor(async () => opens.held.length, (n) => n === BURST, 10_000);
    opens.release();
    const done = await Promise.all(intents.map((i) => waitForIntent(t, i.id, (x) => x.status === 'CREDITED', 10_000)));
    expect(done.every((i) => i.settlement.status === 'CONFIRMED')).toBe(true);
  });
});
