/** GET /paths/strict-receive and /paths/strict-send (fixtures/horizon/paths-*.json). */
import type { Request, Response } from 'express';
import { fromStroops, toStroops } from '../shared/money.js';
import { horizonAssetFields, NATIVE, parseAssetKey, type AssetRef } from '../shared/assets.js';
import type { PathQuote } from '../shared/types.js';
import type { SandboxLedger } from '../ledger.js';
import { badRequest, sendHal } from './render.js';

type Query = Record<string, string | undefined>;

function assetParam(q: Query, prefix: string): AssetRef | null {
  const type = q[`${prefix}_asset_type`];
  if (type === 'native') return NATIVE;
  const code = q[`${prefix}_asset_code`];
  const issuer = q[`${prefix}_asset_issuer`];
  return code && issuer ? { code, issuer } : null;
}

/** "native,USDC:G..." as Horizon's source_assets / destination_assets lists. */
function assetList(value: string | undefined): AssetRef[] | null {
  if (!value) return null;
  try {
    return value.split(',').map((s) => parseAssetKey(s.trim()));
  } catch {
    return null;
  }
}

/** Assets an account holds (for source_account / destination_account queries). */
async function heldAssets(ledger: SandboxLedger, account: string | undefined): Promise<AssetRef[] | null> {
  if (!account || !await ledger.store.getAccount(account)) return null;
  return [...(await ledger.store.listTrustlines(account)).map((t) => parseAssetKey(t.asset)), NATIVE];
}

function amountParam(value: string | undefined): bigint | null {
  try {
    return value ? toStroops(value) : null;
  } catch {
    return null;
  }
}

function pathRecord(p: PathQuote) {
  return {
    ...horizonAssetFields(p.sourceAsset, 'source_'),
    source_amount: fromStroops(p.sourceAmount),
    ...horizonAssetFields(p.destinationAsset, 'destination_'),
    destination_amount: fromStroops(p.destinationAmount),
    path: p.path.map((a) => horizonAssetFields(a)),
  };
}

export function strictReceivePaths(ledger: SandboxLedger) {
  return async (req: Request, res: Response) => {
    const q = req.query as Query;
    const destinationAsset = assetParam(q, 'destination');
    if (!destinationAsset) return badRequest(res, 'destination_asset_type', 'unparseable value');
    const destinationAmount = amountParam(q.destination_amount);
    if (destinationAmount === null) return badRequest(res, 'destination_amount', 'unparseable value');
    const sourceAssets = assetList(q.source_assets) ?? await heldAssets(ledger, q.source_account);
    if (!sourceAssets) return badRequest(res, 'source_assets', 'source_assets or source_account is required');
    const quotes = await ledger.findStrictReceivePaths({ sourceAssets, destinationAsset, destinationAmount });
    sendHal(res, { _embedded: { records: quotes.map(pathRecord) } });
  };
}

export function strictSendPaths(ledger: SandboxLedger) {
  return async (req: Request, res: Response) => {
    const q = req.query as Query;
    const sourceAsset = assetParam(q, 'source');
    if (!sourceAsset) return badRequest(res, 'source_asset_type', 'unparseable value');
    const sourceAmount = amountParam(q.source_amount);
    if (sourceAmount === null) return badRequest(res, 'source_amount', 'unparseable value');
    const destinationAssets = assetList(q.destination_assets) ?? await heldAssets(ledger, q.destination_account);
    if (!destinationAssets) return badRequest(res, 'destination_assets', 'destination_assets or destination_account is required');
    const quotes = await ledger.findStrictSendPaths({ sourceAsset, sourceAmount, destinationAssets });
    sendHal(res, { _embedded: { records: quotes.map(pathRecord) } });
  };
}
