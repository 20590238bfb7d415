import { xdr, type Operation } from '@stellar/stellar-sdk';
import { MAX_STROOPS } from '../../../lib/money.js';
import { opResult } from '../results-xdr.js';
import { baseAccount, type OpContext, type OpOutcome } from './context.js';
import { removeSigners } from './signers.js';

const AUTH_IMMUTABLE = 4;

const fail = (outcome: string): OpOutcome => ({ result: opResult('accountMerge', outcome) });

/**
 * Moves all XLM to the destination and deletes the source: no subentries but its signers (which
 * go with it, their sponsored reserves given back), sponsoring nothing, flags not immutable.
 */
export function accountMerge(op: Operation.AccountMerge, ctx: OpContext): OpOutcome {
  const { store, ledger, source } = ctx;
  const dest = baseAccount(op.destination);
  if (dest === source) return fail('Malformed');
  if (!store.getAccount(dest)) return fail('NoAccount');
  const acc = store.getAccount(source)!;
  if (acc.flags & AUTH_IMMUTABLE) return fail('ImmutableSet');
  if (acc.subentries > store.listSigners(source).length) return fail('HasSubEntries');
  if (acc.numSponsoring > 0) return fail('IsSponsor');
  // An account created in this very ledger could be re-created with the same sequence number.
  if (acc.seq >= BigInt(ledger) << 32n) return fail('SeqnumTooFar');
  const signerSponsorships = removeSigners(ctx, source);
  // Read after the signers went: the destination may have sponsored one of them.
  const into = store.getAccount(dest)!;
  if (into.balance + acc.balance > MAX_STROOPS) return fail('DestFull');
  store.putAccount({ ...into, balance: into.balance + acc.balance, lastModifiedLedger: ledger });
  if (acc.sponsor) {
    const s = store.getAccount(acc.sponsor);
    if (s) store.putAccount({ ...s, numSponsoring: s.numSponsoring - 2, lastModifiedLedger: ledger });
  }
  store.deleteAccount(source);
  const balance = xdr.Int64.fromString(acc.balance.toString());
  return {
    result: opResult('accountMerge', 'Success', balance), sourceAmount: acc.balance, destAmount: acc.balance,
    ...(signerSponsorships.length ? { signerSponsorships } : {}),
  };
}
