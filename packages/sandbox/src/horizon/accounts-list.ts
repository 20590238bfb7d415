/** GET /accounts?asset=|signer=|sponsor=: exactly one filter, as Horizon requires. */
import type { Request, Response } from 'express';
import { parseAssetKey } from '../shared/assets.js';
import type { SandboxLedger } from '../ledger.js';
import { accountResource } from './account.js';
import { serveCollection, type Collection } from './collection.js';
import { ACCOUNT_REASON, isAccountId } from './params.js';
import { badRequest, sendProblem } from './render.js';

type Filter = { asset: string } | { signer: string } | { sponsor: string };

const ASSET_REASON = 'Asset must be the string "native" or a string of the form "Code:IssuerAccountID" for issued assets.';

function parseFilter(res: Response, q: Record<string, string | undefined>): Filter | undefined {
  const given = (['signer', 'sponsor', 'asset', 'liquidity_pool'] as const).filter((k) => q[k]);
  if (given.length !== 1 || given[0] === 'liquidity_pool') {
    // The sandbox has no liquidity pools, so a pool filter can only match nothing: refuse it clearly.
    if (given.length === 1) return void badRequest(res, 'liquidity_pool', 'the sandbox ledger has no liquidity pools');
    return void sendProblem(res, { type: 'invalid_accounts_params', title: 'Invalid Accounts Parameters', status: 400,
      detail: 'Exactly one filter is required. Please ensure that you are including a signer, sponsor, asset, or liquidity pool filter.' });
  }
  const key = given[0]!;
  const value = q[key]!;
  if (key === 'asset') {
    if (value === 'native') return void badRequest(res, 'asset', "you can't filter by asset: native");
    try {
      const asset = parseAssetKey(value);
      if (!/^[a-zA-Z0-9]{1,12}$/.test(asset.code) || !asset.issuer || !isAccountId(asset.issuer)) throw new Error('asset');
      return { asset: value };
    } catch {
      return void badRequest(res, 'asset', ASSET_REASON);
    }
  }
  if (!isAccountId(value)) return void badRequest(res, key, ACCOUNT_REASON);
  return key === 'signer' ? { signer: value } : { sponsor: value };
}

interface AccountRef {
  id: string;
  paging_token: string;
}

export function listAccounts(ledger: SandboxLedger) {
  return async (req: Request, res: Response) => {
    const filter = parseFilter(res, req.query as Record<string, string | undefined>);
    if (!filter) return;
    const collection: Collection<AccountRef> = {
      cursor: /^G[A-Z2-7]{55}$/,
      now: () => '',
      fetch: async (p) => (await ledger
        .listAccountIds(filter, { limit: p.limit, order: p.order, ...(p.cursor ? { cursor: p.cursor } : {}) }))
        .map((id) => ({ id, paging_token: id })),
      render: (a, base) => accountResource(ledger.store, a.id, base),
    };
    await serveCollection(ledger, req, res, collection);
  };
}
