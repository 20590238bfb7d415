/**
 * Checks that decide whether a transaction gets into a ledger at all, in stellar-core's order:
 * operations, time bounds, fee, source account, sequence number, the source's signatures, fee
 * balance, each operation's signatures, unused signatures (auth.ts). A transaction failing here
 * changes nothing (no fee, no sequence number).
 */
import { FeeBumpTransaction, type Transaction, type xdr } from '@stellar/stellar-sdk';
import { availableNative } from './accounts.js';
import { checkOuterAuth, innerAuth } from './auth.js';
import { baseAccount } from './operations/context.js';
import type { OpResult } from './results-xdr.js';
import { resourceFee } from './sac/resources.js';
import type { SandboxStore } from './store.js';

/** Minimum fee per operation (fixtures README, "Network base fee"). */
export const BASE_FEE = 100n;

export interface Checked {
  inner: Transaction;
  source: string;
  feeAccount: string;
  /** What the ledger charges: the base fee per operation (no surge pricing in the sandbox). */
  feeCharged: bigint;
  /** A Soroban transaction's declared resources and resource fee. */
  sorobanData?: xdr.SorobanTransactionData;
}

export interface Rejected {
  /** TransactionResultCode arm, e.g. "txBadSeq". */
  name: string;
  feeCharged: bigint;
  /** txFailed: every operation's result (an operation whose signatures fell short: op_bad_auth). */
  ops?: OpResult[];
}

export async function checkTransaction(
  store: SandboxStore, env: Transaction | FeeBumpTransaction, now: number,
): Promise<Checked | Rejected> {
  const bump = env instanceof FeeBumpTransaction;
  const inner = bump ? env.innerTransaction : env;
  const ops = inner.operations.length;
  if (ops === 0) return { name: 'txMissingOperation', feeCharged: 0n };
  const tb = inner.timeBounds;
  if (tb && now < Number(tb.minTime)) return { name: 'txTooEarly', feeCharged: 0n };
  if (tb && tb.maxTime !== '0' && now > Number(tb.maxTime)) return { name: 'txTooLate', feeCharged: 0n };
  const soroban = sorobanCheck(inner);
  if (typeof soroban === 'string') return { name: soroban, feeCharged: 0n };
  // a Soroban transaction pays the inclusion fee plus the fee of the resources it declared
  const resources = soroban ? resourceFee(soroban.resources) : 0n;
  const feeCharged = BASE_FEE * BigInt(ops + (bump ? 1 : 0)) + resources;
  if (soroban && soroban.resourceFee > BigInt(inner.fee)) return { name: 'txSorobanInvalid', feeCharged: 0n };
  if (BigInt(env.fee) < feeCharged - resources + (soroban?.resourceFee ?? 0n)) return { name: 'txInsufficientFee', feeCharged };
  if (soroban && soroban.resourceFee < resources) return { name: 'txSorobanInvalid', feeCharged: 0n };
  const source = baseAccount(inner.source);
  const account = await store.getAccount(source);
  const feeAccount = bump ? baseAccount(env.feeSource) : source;
  const payer = await store.getAccount(feeAccount);
  if (!account || !payer) return { name: 'txNoAccount', feeCharged: 0n };
  if (BigInt(inner.sequence) !== account.seq + 1n) return { name: 'txBadSeq', feeCharged: 0n };
  const outer = bump ? await checkOuterAuth(store, env, feeAccount) : null;
  if (outer) return { name: outer, feeCharged: 0n };
  const auth = innerAuth(store, inner, source);
  if (!await auth.source()) return { name: 'txBadAuth', feeCharged: 0n };
  if (await availableNative(store, payer) < feeCharged) return { name: 'txInsufficientBalance', feeCharged: 0n };
  const failed = await auth.operations();
  if (failed) return { name: 'txFailed', feeCharged: 0n, ops: failed };
  if (!auth.allUsed()) return { name: 'txBadAuthExtra', feeCharged: 0n };
  return { inner, source, feeAccount, feeCharged, ...(soroban ? { sorobanData: soroban } : {}) };
}

/**
 * A Soroban transaction (an invokeHostFunction) is that one operation with its resources
 * declared (sorobanData); classic operations never carry them. Returns the refusal's name.
 */
function sorobanCheck(tx: Transaction): xdr.SorobanTransactionData | null | string {
  const env = tx.toEnvelope();
  const ext = env.type === 'envelopeTypeTx' ? env.v1.tx.ext : null;
  const data = ext?.type === 'sorobanData' ? ext.sorobanData : null;
  const invokes = tx.operations.some((op) => op.type === 'invokeHostFunction');
  if (!invokes) return data ? 'txMalformed' : null;
  if (tx.operations.length !== 1 || !data) return 'txMalformed';
  return data;
}
