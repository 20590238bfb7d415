import { availableNative } from '../accounts.js';
import type { OpContext } from './context.js';

/**
 * Adds `count` reserve-carrying entries owned by `owner`, paid by the active sponsor if any
 * (numSponsoring/numSponsored), else by the owner. Returns the sponsor, or 'low_reserve' when
 * whoever pays can no longer meet the minimum balance.
 */
export async function takeReserve(
  ctx: OpContext, owner: string, count: number, subentries: number,
): Promise<string | null | 'low_reserve'> {
  const { store, ledger } = ctx;
  const sponsor = ctx.sponsoring.get(owner) ?? null;
  const own = (await store.getAccount(owner))!;
  const payer = sponsor && sponsor !== owner ? sponsor : null;
  await store.putAccount({
    ...own,
    subentries: own.subentries + subentries,
    numSponsored: own.numSponsored + (payer ? count : 0),
    lastModifiedLedger: ledger,
  });
  if (payer) {
    const s = await store.getAccount(payer);
    if (!s) return 'low_reserve';
    await store.putAccount({ ...s, numSponsoring: s.numSponsoring + count, lastModifiedLedger: ledger });
  }
  const check = (await store.getAccount(payer ?? owner))!;
  return await availableNative(store, check) < 0n ? 'low_reserve' : payer;
}

/** Gives back the reserve of removed entries to whoever paid it. */
export async function releaseReserve(
  ctx: OpContext, owner: string, sponsor: string | null, count: number, subentries: number,
): Promise<void> {
  const { store, ledger } = ctx;
  const own = (await store.getAccount(owner))!;
  await store.putAccount({
    ...own,
    subentries: own.subentries - subentries,
    numSponsored: own.numSponsored - (sponsor ? count : 0),
    lastModifiedLedger: ledger,
  });
  if (!sponsor) return;
  const s = await store.getAccount(sponsor);
  if (s) await store.putAccount({ ...s, numSponsoring: s.numSponsoring - count, lastModifiedLedger: ledger });
}
