/** GET /accounts/{id} in Horizon's shape (fixtures/horizon/account.json). */
import { fromStroops } from '../shared/money.js';
import { horizonAssetFields, parseAssetKey } from '../shared/assets.js';
import { liabilities } from '../accounts.js';
import type { AccountRow, SandboxStore } from '../store.js';

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

async function trustlineBalances(store: SandboxStore, id: string) {
  return Promise.all((await store.listTrustlines(id)).map(async (t) => {
    const l = await liabilities(store, id, t.asset);
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
  }));
}

/** The master key first (with its weight, 0 included), then each signer in key order. */
async function signers(store: SandboxStore, a: AccountRow) {
  const master = { weight: a.masterWeight, key: a.id, type: 'ed25519_public_key' };
  return [master, ...(await store.listSigners(a.id)).map((s) => ({
    weight: s.weight, key: s.key, type: 'ed25519_public_key', ...(s.sponsor ? { sponsor: s.sponsor } : {}),
  }))];
}

function flags(bits: number) {
  return { auth_required: (bits & 1) !== 0, auth_revocable: (bits & 2) !== 0, auth_immutable: (bits & 4) !== 0,
    auth_clawback_enabled: (bits & 8) !== 0 };
}

export async function accountResource(store: SandboxStore, id: string, base: string) {
  const a = await store.getAccount(id);
  if (!a) return undefined;
  const native = await liabilities(store, id, 'native');
  return {
    _links: links(base, id),
    id,
    account_id: id,
    sequence: a.seq.toString(),
    sequence_ledger: a.seqLedger,
    sequence_time: String(a.seqTime),
    subentry_count: a.subentries,
    ...(a.inflationDest ? { inflation_destination: a.inflationDest } : {}),
    ...(a.homeDomain ? { home_domain: a.homeDomain } : {}),
    last_modified_ledger: a.lastModifiedLedger,
    thresholds: { low_threshold: a.lowThreshold, med_threshold: a.medThreshold, high_threshold: a.highThreshold },
    flags: flags(a.flags),
    balances: [
      ...await trustlineBalances(store, id),
      {
        balance: fromStroops(a.balance),
        buying_liabilities: fromStroops(native.buying),
        selling_liabilities: fromStroops(native.selling),
        asset_type: 'native',
      },
    ],
    signers: await signers(store, a),
    data: {},
    num_sponsoring: a.numSponsoring,
    num_sponsored: a.numSponsored,
    ...(a.sponsor ? { sponsor: a.sponsor } : {}),
    paging_token: id,
  };
}
