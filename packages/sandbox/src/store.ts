import type { ExpressionBuilder } from 'kysely';
import { bindAll, prepared, sqlOf, type Sql, type SqlSource } from './sql/sql.js';

export interface AccountRow {
  id: string;
  balance: bigint;
  seq: bigint;
  subentries: number;
  numSponsoring: number;
  numSponsored: number;
  sponsor: string | null;
  lastModifiedLedger: number;
  seqLedger: number;
  seqTime: number;
  /** The master key's signing weight (0 disables it) and the low/medium/high thresholds. */
  masterWeight: number;
  lowThreshold: number;
  medThreshold: number;
  highThreshold: number;
  /** AccountFlags bits (auth required 1, revocable 2, immutable 4, clawback 8). */
  flags: number;
  homeDomain: string;
  inflationDest: string | null;
}

/** One extra signer of an account (an ed25519 public key, G...). */
export interface SignerRow {
  account: string;
  key: string;
  weight: number;
  sponsor: string | null;
}

export interface TrustlineRow {
  account: string;
  asset: string;
  balance: bigint;
  limit: bigint;
  sponsor: string | null;
  lastModifiedLedger: number;
}

export interface OfferRow {
  id: number;
  seller: string;
  selling: string;
  buying: string;
  amount: bigint;
  /** Price = buying per selling = n / d. */
  priceN: bigint;
  priceD: bigint;
}

type Raw = Record<string, unknown>;

function accountFrom(r: Raw): AccountRow {
  return {
    id: r.id as string,
    balance: BigInt(r.balance as string),
    seq: BigInt(r.seq as string),
    subentries: r.subentries as number,
    numSponsoring: r.num_sponsoring as number,
    numSponsored: r.num_sponsored as number,
    sponsor: (r.sponsor as string | null) ?? null,
    lastModifiedLedger: r.last_modified_ledger as number,
    seqLedger: r.seq_ledger as number,
    seqTime: r.seq_time as number,
    masterWeight: r.master_weight as number,
    lowThreshold: r.low_threshold as number,
    medThreshold: r.med_threshold as number,
    highThreshold: r.high_threshold as number,
    flags: r.flags as number,
    homeDomain: r.home_domain as string,
    inflationDest: (r.inflation_dest as string | null) ?? null,
  };
}

function trustlineFrom(r: Raw): TrustlineRow {
  return {
    account: r.account as string,
    asset: r.asset as string,
    balance: BigInt(r.balance as string),
    limit: BigInt(r.lim as string),
    sponsor: (r.sponsor as string | null) ?? null,
    lastModifiedLedger: r.last_modified_ledger as number,
  };
}

function offerFrom(r: Raw): OfferRow {
  return {
    id: r.id as number,
    seller: r.seller as string,
    selling: r.selling as string,
    buying: r.buying as string,
    amount: BigInt(r.amount as string),
    priceN: BigInt(r.price_n as string),
    priceD: BigInt(r.price_d as string),
  };
}

const ACCOUNT_COLUMNS = [
  'id', 'balance', 'seq', 'subentries', 'num_sponsoring', 'num_sponsored', 'sponsor', 'last_modified_ledger', 'seq_ledger',
  'seq_time', 'master_weight', 'low_threshold', 'med_threshold', 'high_threshold', 'flags', 'home_domain', 'inflation_dest',
] as const;
type AccountArgs = Record<(typeof ACCOUNT_COLUMNS)[number], unknown>;

/** `column = excluded.column` for each column: an upsert's update of the whole row but its key. */
function excluded<C extends string>(columns: readonly C[]) {
  return (eb: ExpressionBuilder<any, any>) => Object.fromEntries(columns.map((c) => [c, eb.ref(`excluded.${c}`)]));
}

const GET_ACCOUNT = prepared<Raw, { id: string }>((k, p) => k.selectFrom('sbx_accounts').selectAll().where('id', '=', p('id')));

const PUT_ACCOUNT = prepared<never, AccountArgs>((k, p) => k.insertInto('sbx_accounts').values(bindAll(p, ACCOUNT_COLUMNS))
  .onConflict((oc) => oc.column('id').doUpdateSet(excluded(ACCOUNT_COLUMNS.filter((c) => c !== 'id')))));

const DELETE_ACCOUNT = prepared<never, { id: string }>((k, p) => k.deleteFrom('sbx_accounts').where('id', '=', p('id')));

const LIST_SIGNERS = prepared<SignerRow, { account: string }>((k, p) =>
  k.selectFrom('sbx_signers').select(['account', 'key', 'weight', 'sponsor']).where('account', '=', p('account')).orderBy('key'));

// was INSERT OR REPLACE: the row is found by its key alone (no rowid order, no trigger), so an
// update in place is the same
const PUT_SIGNER = prepared<never, SignerRow>((k, p) => k.insertInto('sbx_signers').values(bindAll(p, ['account', 'key', 'weight', 'sponsor']))
  .onConflict((oc) => oc.columns(['account', 'key']).doUpdateSet(excluded(['weight', 'sponsor']))));

const DELETE_SIGNER = prepared<never, { account: string; key: string }>((k, p) =>
  k.deleteFrom('sbx_signers').where('account', '=', p('account')).where('key', '=', p('key')));

const GET_TRUSTLINE = prepared<Raw, { account: string; asset: string }>((k, p) =>
  k.selectFrom('sbx_trustlines').selectAll().where('account', '=', p('account')).where('asset', '=', p('asset')));

const LIST_TRUSTLINES = prepared<Raw, { account: string }>((k, p) =>
  k.selectFrom('sbx_trustlines').selectAll().where('account', '=', p('account')).orderBy('pos'));

type TrustlineArgs = Record<'account' | 'asset' | 'balance' | 'lim' | 'sponsor' | 'last_modified_ledger', unknown>;

const UPDATE_TRUSTLINE = prepared<never, TrustlineArgs>((k, p) => k.updateTable('sbx_trustlines')
  .set(bindAll(p, ['balance', 'lim', 'sponsor', 'last_modified_ledger'])).where('account', '=', p('account')).where('asset', '=', p('asset')));

/** A new trustline goes after the account's others (`pos`, migration 020). */
const INSERT_TRUSTLINE = prepared<never, TrustlineArgs>((k, p) => k.insertInto('sbx_trustlines').values({
  ...bindAll(p, ['account', 'asset', 'balance', 'lim', 'sponsor', 'last_modified_ledger']),
  pos: (eb: ExpressionBuilder<any, any>) => eb.selectFrom('sbx_trustlines')
    .select((s) => s(s.fn.coalesce(s.fn.max('pos'), s.lit(0)), '+', s.lit(1)).as('pos')).where('account', '=', p('account')),
}));

const DELETE_TRUSTLINE = prepared<never, { account: string; asset: string }>((k, p) =>
  k.deleteFrom('sbx_trustlines').where('account', '=', p('account')).where('asset', '=', p('asset')));

const BOOK_OFFERS = prepared<Raw, { selling: string; buying: string }>((k, p) =>
  k.selectFrom('sbx_offers').selectAll().where('selling', '=', p('selling')).where('buying', '=', p('buying')).orderBy('id'));

const OFFERS_BY_SELLER = prepared<Raw, { seller: string }>((k, p) => k.selectFrom('sbx_offers').selectAll().where('seller', '=', p('seller')));

const BOOKS = prepared<{ selling: string; buying: string }>((k) => k.selectFrom('sbx_offers').select(['selling', 'buying']).distinct());

const INSERT_OFFER = prepared<{ id: number }, Record<'seller' | 'selling' | 'buying' | 'amount' | 'price_n' | 'price_d' | 'last_modified_ledger', unknown>>((k, p) =>
  k.insertInto('sbx_offers').values(bindAll(p, ['seller', 'selling', 'buying', 'amount', 'price_n', 'price_d', 'last_modified_ledger']))
    .returning('id'));

const SET_OFFER_AMOUNT = prepared<never, { id: number; amount: string; ledger: number }>((k, p) =>
  k.updateTable('sbx_offers').set({ amount: p('amount'), last_modified_ledger: p('ledger') }).where('id', '=', p('id')));

const SET_OFFER_PRICE = prepared<never, { id: number; price_n: string; price_d: string; ledger: number }>((k, p) =>
  k.updateTable('sbx_offers').set({ price_n: p('price_n'), price_d: p('price_d'), last_modified_ledger: p('ledger') }).where('id', '=', p('id')));

const DELETE_OFFER = prepared<never, { id: number }>((k, p) => k.deleteFrom('sbx_offers').where('id', '=', p('id')));

const GET_STATE = prepared<{ value: string }, { key: string }>((k, p) => k.selectFrom('sbx_state').select('value').where('key', '=', p('key')));

// was INSERT OR REPLACE, like sbx_keys below: rows found by their key alone, updated in place
const SET_STATE = prepared<never, { key: string; value: string }>((k, p) => k.insertInto('sbx_state').values(bindAll(p, ['key', 'value']))
  .onConflict((oc) => oc.column('key').doUpdateSet(excluded(['value']))));

const GET_KEY = prepared<Raw, { role: string }>((k, p) => k.selectFrom('sbx_keys').selectAll().where('role', '=', p('role')));

const PUT_KEY = prepared<never, { role: string; public_key: string; secret: string | null }>((k, p) =>
  k.insertInto('sbx_keys').values(bindAll(p, ['role', 'public_key', 'secret']))
    .onConflict((oc) => oc.column('role').doUpdateSet(excluded(['public_key', 'secret']))));

/** All SQL over ledger entries lives here; the engine works on plain rows. */
export class SandboxStore {
  /** The queries of the store and of history.ts and ledgers.ts, on `db`. */
  readonly sql: Sql;

  constructor(source: SqlSource) {
    this.sql = sqlOf(source);
  }

  async getAccount(id: string): Promise<AccountRow | undefined> {
    const r = await this.sql.get(GET_ACCOUNT, { id });
    return r && accountFrom(r);
  }

  /**
   * An upsert, updating the row in place: INSERT OR REPLACE deleted and re-inserted it, and the
   * treasury's row is written by every operation it sponsors (~14% of a clocked close).
   */
  async putAccount(a: AccountRow): Promise<void> {
    await this.sql.run(PUT_ACCOUNT, {
      id: a.id, balance: a.balance.toString(), seq: a.seq.toString(), subentries: a.subentries, num_sponsoring: a.numSponsoring,
      num_sponsored: a.numSponsored, sponsor: a.sponsor, last_modified_ledger: a.lastModifiedLedger, seq_ledger: a.seqLedger,
      seq_time: a.seqTime, master_weight: a.masterWeight, low_threshold: a.lowThreshold, med_threshold: a.medThreshold,
      high_threshold: a.highThreshold, flags: a.flags, home_domain: a.homeDomain, inflation_dest: a.inflationDest,
    });
  }

  async deleteAccount(id: string): Promise<void> {
    await this.sql.run(DELETE_ACCOUNT, { id });
  }

  /** An account's extra signers in stellar-core's order (by key). */
  async listSigners(account: string): Promise<SignerRow[]> {
    return this.sql.all(LIST_SIGNERS, { account });
  }

  async putSigner(s: SignerRow): Promise<void> {
    await this.sql.run(PUT_SIGNER, { account: s.account, key: s.key, weight: s.weight, sponsor: s.sponsor });
  }

  async deleteSigner(account: string, key: string): Promise<void> {
    await this.sql.run(DELETE_SIGNER, { account, key });
  }

  async getTrustline(account: string, asset: string): Promise<TrustlineRow | undefined> {
    const r = await this.sql.get(GET_TRUSTLINE, { account, asset });
    return r && trustlineFrom(r);
  }

  /** An account's trustlines in the order they were made. */
  async listTrustlines(account: string): Promise<TrustlineRow[]> {
    return (await this.sql.all(LIST_TRUSTLINES, { account })).map(trustlineFrom);
  }

  /**
   * Updates the trustline in place, else makes it (after the account's others): an upsert would
   * compute the new one's position at every write of a balance.
   */
  async putTrustline(t: TrustlineRow): Promise<void> {
    const args = { account: t.account, asset: t.asset, balance: t.balance.toString(), lim: t.limit.toString(), sponsor: t.sponsor,
      last_modified_ledger: t.lastModifiedLedger };
    if (await this.sql.run(UPDATE_TRUSTLINE, args) === 0) await this.sql.run(INSERT_TRUSTLINE, args);
  }

  async deleteTrustline(account: string, asset: string): Promise<void> {
    await this.sql.run(DELETE_TRUSTLINE, { account, asset });
  }

  /** Offers selling `selling` for `buying`, best (lowest) price first, then oldest. */
  async bookOffers(selling: string, buying: string): Promise<OfferRow[]> {
    const rows = await this.sql.all(BOOK_OFFERS, { selling, buying });
    // Prices are exact rationals; compare by cross-multiplication rather than in SQL floats.
    return rows.map(offerFrom).sort((a, b) => {
      const diff = a.priceN * b.priceD - b.priceN * a.priceD;
      return diff < 0n ? -1 : diff > 0n ? 1 : a.id - b.id;
    });
  }

  async offersBySeller(seller: string): Promise<OfferRow[]> {
    return (await this.sql.all(OFFERS_BY_SELLER, { seller })).map(offerFrom);
  }

  /** Distinct [selling, buying] pairs that have offers. */
  async books(): Promise<Array<[string, string]>> {
    return (await this.sql.all(BOOKS)).map((r) => [r.selling, r.buying]);
  }

  async insertOffer(o: Omit<OfferRow, 'id'>, ledger: number): Promise<number> {
    const row = await this.sql.get(INSERT_OFFER, {
      seller: o.seller, selling: o.selling, buying: o.buying, amount: o.amount.toString(), price_n: o.priceN.toString(),
      price_d: o.priceD.toString(), last_modified_ledger: ledger,
    });
    return Number(row!.id);
  }

  async setOfferAmount(id: number, amount: bigint, ledger: number): Promise<void> {
    await this.sql.run(SET_OFFER_AMOUNT, { id, amount: amount.toString(), ledger });
  }

  async setOfferPrice(id: number, priceN: bigint, priceD: bigint, ledger: number): Promise<void> {
    await this.sql.run(SET_OFFER_PRICE, { id, price_n: priceN.toString(), price_d: priceD.toString(), ledger });
  }

  async deleteOffer(id: number): Promise<void> {
    await this.sql.run(DELETE_OFFER, { id });
  }

  async getState(key: string): Promise<string | undefined> {
    return (await this.sql.get(GET_STATE, { key }))?.value;
  }

  async setState(key: string, value: string): Promise<void> {
    await this.sql.run(SET_STATE, { key, value });
  }

  async getKey(role: string): Promise<{ publicKey: string; secret: string | null } | undefined> {
    const r = await this.sql.get(GET_KEY, { role });
    return r && { publicKey: r.public_key as string, secret: (r.secret as string | null) ?? null };
  }

  async putKey(role: string, publicKey: string, secret: string | null): Promise<void> {
    await this.sql.run(PUT_KEY, { role, public_key: publicKey, secret });
  }
}
