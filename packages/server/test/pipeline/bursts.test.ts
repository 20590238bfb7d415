/**
 * A burst of payments moves through the pipeline side by side, not one at a time. On testnet each
 * confirmation first reads its transaction back from Horizon (a round trip), and each settlement's
 * opening waits for the writer: one at a time, a burst paid in one ledger was confirmed and opened
 * over several more (on PostgreSQL, 24 payments took up to 10 ledgers of 1 s to settle).
 * Each test holds one step at a gate and counts who reaches it: one at a time, the count stays 1.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FeeBumpTransaction, TransactionBuilder } from '@stellar/stellar-sdk';
import type { TransactionView } from '../../src/stellar/index.js';
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

function transactionOf(envelopeXdr: string, passphrase: string) {
  const tx = TransactionBuilder.fromXDR(envelopeXdr, passphrase);
  return tx instanceof FeeBumpTransaction ? tx.innerTransaction : tx;
}

let restore: (() => void) | null = null;
afterEach(() => restore?.());

async function burst() {
  const intents = await Promise.all(Array.from({ length: BURST }, () => createIntent(t, { amount: '5.00' })));
  // the deposit pool refills behind the creates; its transactions are not what is counted
  await t.server.services.pipeline.pipeline.drain();
  return intents;
}

describe('a burst of payments', () => {
  it('is confirmed with its network reads in flight together', async () => {
    const intents = await burst();
    const addresses = new Set<string>(intents.map((i) => i.deposit_account.address));
    const network = t.server.services.pipeline.pipeline.stellar!.network;
    // held: the reads of transactions that pay one of the burst's deposit accounts
    const paysBurst = (view: TransactionView | null) => view !== null && transactionOf(view.envelopeXdr, network.passphrase).operations
      .some((op) => op.type === 'payment' && addresses.has(op.destination));
    const reads = gate(network, 'getTransaction', { after: paysBurst });
    restore = reads.restore;
    const payments = await Promise.all(intents.map((i) => pay(t, i.id, '5.00')));
    await waitFor(async () => reads.held.length, (n) => n === BURST, 10_000);
    reads.release();
    await Promise.all(intents.map((i) => waitForIntent(t, i.id, (x) => x.status === 'CREDITED', 10_000)));
    expect(new Set(reads.held.map((args) => args[0]))).toEqual(new Set(payments.map((p) => p.transaction_hash)));
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
