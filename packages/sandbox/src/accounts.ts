import { MAX_STROOPS } from './shared/money.js';
import type { AccountRow, SandboxStore } from './store.js';

/** Base reserve 0.5 XLM (fixtures README, "Facts"). */
export const BASE_RESERVE = 5_000_000n;

/** Liabilities of `account` in `asset` implied by its open offers. */
export async function liabilities(store: SandboxStore, account: string, asset: string) {
  let selling = 0n;
  let buying = 0n;
  for (const o of await store.offersBySeller(account)) {
    if (o.selling === asset) selling += o.amount;
    if (o.buying === asset) buying += ceilDiv(o.amount * o.priceN, o.priceD);
  }
  return { selling, buying };
}

export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** (2 + subentries + numSponsoring − numSponsored) × base reserve + native selling liabilities. */
export async function minBalance(store: SandboxStore, a: AccountRow): Promise<bigint> {
  const entries = 2n + BigInt(a.subentries + a.numSponsoring - a.numSponsored);
  return entries * BASE_RESERVE + (await liabilities(store, a.id, 'native')).selling;
}

/** XLM that can leave the account without breaking its reserve. */
export async function availableNative(store: SandboxStore, a: AccountRow): Promise<bigint> {
  return a.balance - await minBalance(store, a);
}

export function newAccount(id: string, balance: bigint, ledger: number, closeTime: number): AccountRow {
  // A new account's sequence number is ledgerSeq << 32, as in stellar-core.
  return {
    id,
    balance,
    seq: BigInt(ledger) << 32n,
    subentries: 0,
    numSponsoring: 0,
    numSponsored: 0,
    sponsor: null,
    lastModifiedLedger: ledger,
    seqLedger: ledger,
    seqTime: closeTime,
    masterWeight: 1,
    lowThreshold: 0,
    medThreshold: 0,
    highThreshold: 0,
    flags: 0,
    homeDomain: '',
    inflationDest: null,
  };
}

/** Adds `delta` (may be negative) to an account's XLM; false when the result leaves int64. */
export async function addNative(store: SandboxStore, id: string, delta: bigint, ledger: number): Promise<boolean> {
  const a = await store.getAccount(id);
  if (!a) return false;
  const balance = a.balance + delta;
  if (balance < 0n || balance > MAX_STROOPS) return false;
  await store.putAccount({ ...a, balance, lastModifiedLedger: ledger });
  return true;
}
