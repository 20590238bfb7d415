/** GET /accounts/{id} in Horizon's shape (fixtures/horizon/account.json). */
import { fromStroops } from '../../../lib/money.js';
import { horizonAssetFields, parseAssetKey } from '../../assets.js';
import { liabilities } from '../accounts.js';
import type { SandboxStore } from '../store.js';

function links(base: string, id: string) {
  const acc = `${base}/accounts/${id}`;
  const list = (name: string) => ({ href: `${acc}/${name}{?cursor,limit,order}`, templated: true });
  return {
    self: { href: acc },
    transactions: list('transactions'),
    operations: list('operations'),
    payments: list('payments'),
    effects: list('effects'),
    offers: list('offers'),
    trades: list('trades'),
    data: { href: `${acc}/data/{key}`, templated: true },
  };
}

function trustlineBalances(store: SandboxStore, id: string) {
  return store.listTrustlines(id).map((t) => {
    const l = liabilities(store, id, t.asset);
    return {
      balance: fromStroops(t.balance),
      limit: fromStroops(t.limit),
      buying_liabilities: fromStroops(l.buying),
      selling_liabilities: fromStroops(l.selling),
      last_modified_ledger: t.lastModifiedLedger,
      is_authorized: true,
      is_authorized_to_maintain_liabilities: true,
      ...horizonAssetFields(parseAssetKey(t.asset)),
      ...(t.sponsor ? { sponsor: t.sponsor } : {}),
    };
  });
}

export function accountResource(store: SandboxStore, id: string, base: string) {
  const a = store.getAccount(id);
  if (!a) return undefined;
  const native = liabilities(store, id, 'native');
  return {
    _links: links(base, id),
    id,
    account_id: id,
    sequence: a.seq.toString(),
    sequence_ledger: a.seqLedger,
    sequence_time: String(a.seqTime),
    subentry_count: a.subentries,
    last_modified_ledger: a.lastModifiedLedger,
    thresholds: { low_threshold: 0, med_threshold: 0, high_threshold: 0 },
    flags: { auth_required: false, auth_revocable: false, auth_immutable: false, auth_clawback_enabled: false },
    balances: [
      ...trustlineBalances(store, id),
      {
        balance: fromStroops(a.balance),
        buying_liabilities: fromStroops(native.buying),
        selling_liabilities: fromStroops(native.selling),
        asset_type: 'native',
      },
    ],
    signers: [{ weight: 1, key: id, type: 'ed25519_public_key' }],
    data: {},
    num_sponsoring: a.numSponsoring,
    num_sponsored: a.numSponsored,
    ...(a.sponsor ? { sponsor: a.sponsor } : {}),
    paging_token: id,
  };
}
