/** An account's extra signers as subentries, and how Horizon sees changes to who signs. */
import type { SandboxStore } from '../store.js';
import type { OpContext, SignerChange, SignerSponsorship } from './context.js';
import { releaseReserve } from './reserves.js';

/**
 * Horizon's SignerSummary: every key that can sign with a weight above 0, the master key
 * included (a master weight of 0 takes it out).
 */
export async function signerSummary(store: SandboxStore, id: string): Promise<Map<string, number>> {
  const account = await store.getAccount(id);
  const summary = new Map<string, number>();
  if (!account) return summary;
  if (account.masterWeight > 0) summary.set(id, account.masterWeight);
  for (const s of await store.listSigners(id)) summary.set(s.key, s.weight);
  return summary;
}

const sorted = (m: Map<string, number>) => [...m.keys()].sort();

/** Removed and updated keys (in key order), then created ones (in key order), as Horizon emits them. */
export function summaryDiff(before: Map<string, number>, after: Map<string, number>): SignerChange[] {
  const changes: SignerChange[] = [];
  for (const key of sorted(before)) {
    const weight = after.get(key);
    if (weight === undefined) changes.push({ type: 'signer_removed', key, weight: 0 });
    else if (weight !== before.get(key)) changes.push({ type: 'signer_updated', key, weight });
  }
  for (const key of sorted(after)) {
    if (!before.has(key)) changes.push({ type: 'signer_created', key, weight: after.get(key)! });
  }
  return changes;
}

/** Deletes every signer of an account (merged away), giving each sponsored reserve back. */
export async function removeSigners(ctx: OpContext, account: string): Promise<SignerSponsorship[]> {
  const released: SignerSponsorship[] = [];
  for (const s of await ctx.store.listSigners(account)) {
    await ctx.store.deleteSigner(account, s.key);
    await releaseReserve(ctx, account, s.sponsor, 1, 1);
    if (s.sponsor) released.push({ signer: s.key, formerSponsor: s.sponsor });
  }
  return released;
}
