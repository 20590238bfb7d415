import { Asset, type Operation } from '@stellar/stellar-sdk';
import { MAX_STROOPS } from '../shared/money.js';
import { assetKey, fromSdkAsset } from '../shared/assets.js';
import { liabilities } from '../accounts.js';
import { opResult } from '../results-xdr.js';
import { stroops, type OpContext, type OpOutcome } from './context.js';
import { releaseReserve, takeReserve } from './reserves.js';

const fail = (outcome: string): OpOutcome => ({ result: opResult('changeTrust', outcome) });
const ok = (trustline: OpOutcome['trustline'], sponsor?: string | null): OpOutcome =>
  ({ result: opResult('changeTrust', 'Success'), trustline, ...(sponsor ? { sponsor } : {}) });

/** Adds, updates or (limit 0) removes a trustline; pool shares are not supported here. */
export async function changeTrust(op: Operation.ChangeTrust, ctx: OpContext): Promise<OpOutcome> {
  const { store, ledger, source } = ctx;
  if (!(op.line instanceof Asset) || op.line.isNative()) return fail('Malformed');
  const asset = fromSdkAsset(op.line);
  const limit = stroops(op.limit);
  if (limit < 0n || limit > MAX_STROOPS || asset.issuer === source) return fail('Malformed');
  const key = assetKey(asset);
  const line = await store.getTrustline(source, key);
  if (!line) {
    if (limit === 0n) return fail('InvalidLimit');
    if (!await store.getAccount(asset.issuer!)) return fail('NoIssuer');
    const sponsor = await takeReserve(ctx, source, 1, 1);
    if (sponsor === 'low_reserve') return fail('LowReserve');
    await store.putTrustline({ account: source, asset: key, balance: 0n, limit, sponsor, lastModifiedLedger: ledger });
    return ok('created', sponsor);
  }
  const { buying } = await liabilities(store, source, key);
  if (limit === 0n) {
    if (line.balance > 0n || buying > 0n) return fail('InvalidLimit');
    await store.deleteTrustline(source, key);
    await releaseReserve(ctx, source, line.sponsor, 1, 1);
    return ok('removed');
  }
  if (limit < line.balance + buying) return fail('InvalidLimit');
  await store.putTrustline({ ...line, limit, lastModifiedLedger: ledger });
  return ok('updated');
}
