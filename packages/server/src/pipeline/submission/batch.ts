/**
 * Packing queued treasury work into transactions within Stellar's limits: at most 100
 * operations and 20 signatures per transaction. The channel signs for the transaction, the
 * treasury for operations it is the source of (an operation without a source is the treasury's:
 * callers write specs as if the treasury were the transaction source, as it was before
 * channels), and each item's own signers (deposit keys) for theirs. A memo belongs to the whole
 * transaction, so an item with a memo travels alone.
 */
import { Account, BASE_FEE, Keypair, TimeoutInfinite, TransactionBuilder, xdr, type Transaction } from '@stellar/stellar-sdk';
import type { BuildSpec } from './types.js';

export const MAX_OPS = 100;
export const MAX_SIGNATURES = 20;

export interface Built {
  envelope: string;
  hash: string;
  /** Index of each item's first operation in the transaction. */
  offsets: number[];
}

/** Operations with the treasury as source where the spec left it to the transaction. */
export function withSources(spec: BuildSpec, treasury: string): xdr.Operation[] {
  const muxed = xdr.MuxedAccount.keyTypeEd25519(Keypair.fromPublicKey(treasury).rawPublicKey());
  // a new operation around the same body: the spec's own operation is never mutated
  return spec.operations.map((op) => (op.sourceAccount ? op : new xdr.Operation({ sourceAccount: muxed, body: op.body })));
}

/** Whether an item has an operation the treasury must sign for: one without a source, or with the treasury's. */
function usesTreasury(spec: BuildSpec, treasuryRaw: Uint8Array): boolean {
  return spec.operations.some((op) => {
    const source = op.sourceAccount;
    return !source || (source.type === 'keyTypeEd25519' && Buffer.from(source.ed25519.toBytes()).equals(treasuryRaw));
  });
}

/** Distinct signing keys (besides the channel's) that a set of items needs. */
export function signersOf(specs: BuildSpec[], treasury: Keypair): Keypair[] {
  const keys = new Map<string, Keypair>();
  for (const spec of specs) addSigners(keys, spec, treasury);
  return [...keys.values()];
}

function addSigners(keys: Map<string, Keypair>, spec: BuildSpec, treasury: Keypair): void {
  if (usesTreasury(spec, treasury.rawPublicKey())) keys.set(treasury.publicKey(), treasury);
  for (const k of spec.signers ?? []) keys.set(k.publicKey(), k);
}

/** How many of `specs` (in order, at most `maxItems`) fit one transaction: always at least one. */
export function fitCount(specs: BuildSpec[], treasury: Keypair, maxItems = Infinity): number {
  if (specs[0]?.memo || specs[0]?.soroban) return 1;
  const keys = new Map<string, Keypair>();
  let ops = 0;
  let n = 0;
  for (const spec of specs) {
    if (spec.memo || spec.soroban || n >= maxItems) break;
    ops += spec.operations.length;
    addSigners(keys, spec, treasury);
    // + 1: the channel's own signature
    if (n > 0 && (ops > MAX_OPS || keys.size + 1 > MAX_SIGNATURES)) break;
    n += 1;
  }
  return Math.max(1, n);
}

export function buildBatch(
  specs: BuildSpec[], channel: Keypair, sequence: bigint, treasury: Keypair, passphrase: string,
): Built {
  const ops = specs.map((s) => withSources(s, treasury.publicKey()));
  const count = ops.reduce((n, o) => n + o.length, 0);
  const builder = new TransactionBuilder(new Account(channel.publicKey(), sequence.toString()), {
    fee: String(Number(BASE_FEE) * Math.max(1, count)), networkPassphrase: passphrase,
  });
  const offsets: number[] = [];
  let at = 0;
  for (const list of ops) {
    offsets.push(at);
    for (const op of list) builder.addOperation(op);
    at += list.length;
  }
  const memo = specs.length === 1 ? specs[0]!.memo : undefined;
  if (memo) builder.addMemo(memo);
  // No time bound: a stored envelope must stay submittable across a restart.
  const tx = builder.setTimeout(TimeoutInfinite).build();
  tx.sign(channel, ...signersOf(specs, treasury));
  return { envelope: tx.toXdr(), hash: Buffer.from(tx.hash()).toString('hex'), offsets };
}

/**
 * A Soroban item's transaction: its one invokeHostFunction over the channel, simulated and
 * assembled by the network (footprint, resources, resource fee, source-account auth), then signed.
 */
export async function buildPrepared(
  spec: BuildSpec, channel: Keypair, sequence: bigint, treasury: Keypair, passphrase: string, prepare: (tx: Transaction) => Promise<Transaction>,
): Promise<Built> {
  const [op, ...more] = withSources(spec, treasury.publicKey());
  if (!op || more.length > 0) throw new Error('a Soroban transaction carries exactly one operation');
  const draft = new TransactionBuilder(new Account(channel.publicKey(), sequence.toString()), { fee: BASE_FEE, networkPassphrase: passphrase })
    .addOperation(op).setTimeout(TimeoutInfinite).build();
  const tx = await prepare(draft);
  tx.sign(channel, ...signersOf([spec], treasury));
  return { envelope: tx.toXdr(), hash: Buffer.from(tx.hash()).toString('hex'), offsets: [0] };
}
