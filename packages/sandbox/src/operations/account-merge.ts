import { xdr, type Operation } from '@stellar/stellar-sdk';
import { MAX_STROOPS } from '../shared/money.js';
import { opResult } from '../results-xdr.js';
import { baseAccount, type OpContext, type OpOutcome } from './context.js';
import { removeSigners } from './signers.js';

const AUTH_IMMUTABLE = 4;

const fail = (outcome: string): OpOutcome => ({ result: opResult('accountMerge', outcome) });

/**
 * Moves all XLM to the destination and deletes the source: no subentries but its signers (which
 * go with it, their sponsored reserves given back), sponsoring nothing, flags not immutable.
 */
export async function accountMerge(op: Operation.AccountMerge, ctx: OpContext): Promise<OpOutcome> {
  const { store, ledger, source } = ctx;
  const dest = baseAccount(op.destination);
  if (dest === source) return fail('Malformed');
  if (!await store.getAccount(dest)) return fail('NoAccount');
  const acc = (await store.getAccount(source))!;
  if (acc.flags & AUTH_IMMUTABLE) return fail('ImmutableSet');
  if (acc.subentries > (await store.listSigners(source)).length) return fail('HasSubEntries');
  if (acc.numSponsoring > 0) return fail('IsSponsor');
  // An account created in this very ledger could be re-created with the same sequence number.
  if (acc.seq >= BigInt(ledger) << 32n) return fail('SeqnumTooFar');
  const signerSponsorships = await removeSigners(ctx, source);
  // Read after the signers went: the destination may have sponsored one of them.
  const into = (await store.getAccount(dest))!;
  if (into.balance + acc.balance > MAX_STROOPS) return fail('DestFull');
  await store.putAccount({ ...into, balance: into.balance + acc.balance, lastModifiedLedger: ledger });
  if (acc.sponsor) {
    const s = await store.getAccount(acc.sponsor);
    if (s) await store.putAccount({ ...s, numSponsoring: s.numSponsoring - 2, lastModifiedLedger: ledger });
  }
  await store.deleteAccount(source);
  const balance = xdr.Int64.fromString(acc.balance.toString());
  return {
    result: opResult('accountMerge', 'Success', balance), sourceAmount: acc.balance, destAmount: acc.balance,
    ...(signerSponsorships.length ? { signerSponsorships } : {}),
  };
}
