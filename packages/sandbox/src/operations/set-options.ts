/**
 * setOptions as stellar-core applies it (SetOptionsOpFrame): master weight, thresholds, one
 * signer added, updated or (weight 0) removed, home domain, inflation destination and flags.
 * Only ed25519 signers are supported; pre-auth-tx, hash-x and signed-payload signers answer
 * op_not_supported. Flags are stored and shown but not enforced (the sandbox has no allowTrust).
 */
import { xdr, type Operation } from '@stellar/stellar-sdk';
import { opResult } from '../results-xdr.js';
import type { OpContext, OpOutcome, SignerSponsorship } from './context.js';
import { takeReserve, releaseReserve } from './reserves.js';
import { signerSummary, summaryDiff } from './signers.js';

const AUTH_REVOCABLE = 2;
const AUTH_IMMUTABLE = 4;
const AUTH_CLAWBACK_ENABLED = 8;
const KNOWN_FLAGS = 0xf;
/** An account entry holds at most 20 signers (xdr Signer signers<MAX_SIGNERS>). */
const MAX_SIGNERS = 20;

type SetOptions = Operation.SetOptions;
type Ed25519Signer = { ed25519PublicKey: string; weight: number };

const fail = (outcome: string): OpOutcome => ({ result: opResult('setOptions', outcome) });

/** doCheckValid: what is wrong with the operation whatever the ledger holds. */
function malformed(op: SetOptions, signer: Ed25519Signer | undefined, source: string): string | null {
  const set = op.setFlags ?? 0;
  const clear = op.clearFlags ?? 0;
  if ((set | clear) & ~KNOWN_FLAGS) return 'UnknownFlag';
  if (set & clear) return 'BadFlags';
  const weights = [op.masterWeight, op.lowThreshold, op.medThreshold, op.highThreshold];
  if (weights.some((w) => w !== undefined && w > 255)) return 'ThresholdOutOfRange';
  if (signer && (signer.ed25519PublicKey === source || signer.weight > 255)) return 'BadSigner';
  // string32: printable characters only.
  if (op.homeDomain !== undefined && !/^[\x20-\x7e]*$/.test(op.homeDomain)) return 'InvalidHomeDomain';
  return null;
}

/** The account's flags after the operation, or why they cannot change. */
function nextFlags(flags: number, op: SetOptions): number | string {
  const set = op.setFlags ?? 0;
  const clear = op.clearFlags ?? 0;
  if ((set | clear) && flags & AUTH_IMMUTABLE) return 'CantChange';
  const next = (flags & ~clear) | set;
  if (next & AUTH_CLAWBACK_ENABLED && !(next & AUTH_REVOCABLE)) return 'AuthRevocableRequired';
  return next;
}

/** Writes everything but the signer; a string is the failure. */
async function applyOptions(op: SetOptions, ctx: OpContext): Promise<string | null> {
  const { store, source } = ctx;
  const acc = (await store.getAccount(source))!;
  if (op.inflationDest && op.inflationDest !== source && !await store.getAccount(op.inflationDest)) return 'InvalidInflation';
  const flags = nextFlags(acc.flags, op);
  if (typeof flags === 'string') return flags;
  await store.putAccount({
    ...acc,
    flags,
    inflationDest: op.inflationDest ?? acc.inflationDest,
    homeDomain: op.homeDomain ?? acc.homeDomain,
    masterWeight: op.masterWeight ?? acc.masterWeight,
    lowThreshold: op.lowThreshold ?? acc.lowThreshold,
    medThreshold: op.medThreshold ?? acc.medThreshold,
    highThreshold: op.highThreshold ?? acc.highThreshold,
    lastModifiedLedger: ctx.ledger,
  });
  return null;
}

/** Adds, reweighs or (weight 0) removes a signer; each signer is a subentry with a reserve. */
async function applySigner(signer: Ed25519Signer, ctx: OpContext): Promise<string | SignerSponsorship | null> {
  const { store, source } = ctx;
  const key = signer.ed25519PublicKey;
  const signers = await store.listSigners(source);
  const existing = signers.find((s) => s.key === key);
  if (signer.weight === 0) {
    if (!existing) return null;
    await store.deleteSigner(source, key);
    await releaseReserve(ctx, source, existing.sponsor, 1, 1);
    return existing.sponsor ? { signer: key, formerSponsor: existing.sponsor } : null;
  }
  if (existing) {
    await store.putSigner({ ...existing, weight: signer.weight });
    return null;
  }
  if (signers.length >= MAX_SIGNERS) return 'TooManySigners';
  const sponsor = await takeReserve(ctx, source, 1, 1);
  if (sponsor === 'low_reserve') return 'LowReserve';
  await store.putSigner({ account: source, key, weight: signer.weight, sponsor });
  return sponsor ? { signer: key, sponsor } : null;
}

export async function setOptions(op: SetOptions, ctx: OpContext): Promise<OpOutcome> {
  if (op.signer && !('ed25519PublicKey' in op.signer)) {
    return { result: { code: 'op_not_supported', xdr: xdr.OperationResult.opNotSupported() } };
  }
  const signer = op.signer as Ed25519Signer | undefined;
  const bad = malformed(op, signer, ctx.source);
  if (bad) return fail(bad);
  const before = await signerSummary(ctx.store, ctx.source);
  const failed = await applyOptions(op, ctx);
  if (failed) return fail(failed);
  const changed = signer ? await applySigner(signer, ctx) : null;
  if (typeof changed === 'string') return fail(changed);
  return {
    result: opResult('setOptions', 'Success'),
    signers: summaryDiff(before, await signerSummary(ctx.store, ctx.source)),
    ...(changed ? { signerSponsorships: [changed] } : {}),
  };
}
