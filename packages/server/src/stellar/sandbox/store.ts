import type { Database } from 'better-sqlite3';

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

/** All SQL over ledger entries lives here; the engine works on plain rows. */
export class SandboxStore {
  constructor(readonly db: Database) {}

  getAccount(id: string): AccountRow | undefined {
    const r = this.db.prepare('SELECT * FROM sbx_accounts WHERE id = ?').get(id) as Raw | undefined;
    return r && accountFrom(r);
  }

  /**
   * An upsert, updating the row in place: INSERT OR REPLACE deleted and re-inserted it, and the
   * treasury's row is written by every operation it sponsors (~14% of a clocked close).
   */
  putAccount(a: AccountRow): void {
    this.db
      .prepare(
        `INSERT INTO sbx_accounts (id, balance, seq, subentries, num_sponsoring,
         num_sponsored, sponsor, last_modified_ledger, seq_ledger, seq_time, master_weight,
         low_threshold, med_threshold, high_threshold, flags, home_domain, inflation_dest)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET balance = excluded.balance, seq = excluded.seq, subentries = excluded.subentries,
         num_sponsoring = excluded.num_sponsoring, num_sponsored = excluded.num_sponsored, sponsor = excluded.sponsor,
         last_modified_ledger = excluded.last_modified_ledger, seq_ledger = excluded.seq_ledger, seq_time = excluded.seq_time,
         master_weight = excluded.master_weight, low_threshold = excluded.low_threshold, med_threshold = excluded.med_threshold,
         high_threshold = excluded.high_threshold, flags = excluded.flags, home_domain = excluded.home_domain,
         inflation_dest = excluded.inflation_dest`,
      )
      .run(a.id, a.balance.toString(), a.seq.toString(), a.subentries, a.numSponsoring,
        a.numSponsored, a.sponsor, a.lastModifiedLedger, a.seqLedger, a.seqTime, a.masterWeight,
        a.lowThreshold, a.medThreshold, a.highThreshold, a.flags, a.homeDomain, a.inflationDest);
  }

  deleteAccount(id: string): void {
    this.db.prepare('DELETE FROM sbx_accounts WHERE id = ?').run(id);
  }

  /** An account's extra signers in stellar-core's order (by key). */
  listSigners(account: string): SignerRow[] {
    return this.db
      .prepare('SELECT account, key, weight, sponsor FROM sbx_signers WHERE account = ? ORDER BY key')
      .all(account) as SignerRow[];
  }

  putSigner(s: SignerRow): void {
    this.db
      .prepare('INSERT OR REPLACE INTO sbx_signers (account, key, weight, sponsor) VALUES (?, ?, ?, ?)')
      .run(s.account, s.key, s.weight, s.sponsor);
  }

  deleteSigner(account: string, key: string): void {
    this.db.prepare('DELETE FROM sbx_signers WHERE account = ? AND key = ?').run(account, key);
  }

  getTrustline(account: string, asset: string): TrustlineRow | undefined {
    const r = this.db
      .prepare('SELECT * FROM sbx_trustlines WHERE account = ? AND asset = ?')
      .get(account, asset) as Raw | undefined;
    return r && trustlineFrom(r);
  }

  listTrustlines(account: string): TrustlineRow[] {
    const rows = this.db
      .prepare('SELECT * FROM sbx_trustlines WHERE account = ? ORDER BY rowid')
      .all(account) as Raw[];
    return rows.map(trustlineFrom);
  }

  putTrustline(t: TrustlineRow): void {
    this.db
      .prepare(
        `INSERT INTO sbx_trustlines (account, asset, balance, lim, sponsor, last_modified_ledger) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (account, asset) DO UPDATE SET balance = excluded.balance, lim = excluded.lim, sponsor = excluded.sponsor,
         last_modified_ledger = excluded.last_modified_ledger`,
      )
      .run(t.account, t.asset, t.balance.toString(), t.limit.toString(), t.sponsor,
        t.lastModifiedLedger);
  }

  deleteTrustline(account: string, asset: string): void {
    this.db.prepare('DELETE FROM sbx_trustlines WHERE account = ? AND asset = ?').run(account, asset);
  }

  /** Offers selling `selling` for `buying`, best (lowest) price first, then oldest. */
  bookOffers(selling: string, buying: string): OfferRow[] {
    const rows = this.db
      .prepare('SELECT * FROM sbx_offers WHERE selling = ? AND buying = ? ORDER BY id')
      .all(selling, buying) as Raw[];
    // Prices are exact rationals; compare by cross-multiplication rather than in SQL floats.
    return rows.map(offerFrom).sort((a, b) => {
      const diff = a.priceN * b.priceD - b.priceN * a.priceD;
      return diff < 0n ? -1 : diff > 0n ? 1 : a.id - b.id;
    });
  }

  offersBySeller(seller: string): OfferRow[] {
    const rows = this.db.prepare('SELECT * FROM sbx_offers WHERE seller = ?').all(seller) as Raw[];
    return rows.map(offerFrom);
  }

  /** Distinct [selling, buying] pairs that have offers. */
  books(): Array<[string, string]> {
    const rows = this.db
      .prepare('SELECT DISTINCT selling, buying FROM sbx_offers')
      .all() as Array<{ selling: string; buying: string }>;
    return rows.map((r) => [r.selling, r.buying]);
  }

  insertOffer(o: Omit<OfferRow, 'id'>, ledger: number): number {
    const info = this.db
      .prepare(
        `INSERT INTO sbx_offers (seller, selling, buying, amount, price_n, price_d,
         last_modified_ledger) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(o.seller, o.selling, o.buying, o.amount.toString(), o.priceN.toString(),
        o.priceD.toString(), ledger);
    return Number(info.lastInsertRowid);
  }

  setOfferAmount(id: number, amount: bigint, ledger: number): void {
    this.db
      .prepare('UPDATE sbx_offers SET amount = ?, last_modified_ledger = ? WHERE id = ?')
      .run(amount.toString(), ledger, id);
  }

  deleteOffer(id: number): void {
    this.db.prepare('DELETE FROM sbx_offers WHERE id = ?').run(id);
  }

  getState(key: string): string | undefined {
    const r = this.db.prepare('SELECT value FROM sbx_state WHERE key = ?').get(key) as
      | { value: string }
      | undefined;
    return r?.value;
  }

  setState(key: string, value: string): void {
    this.db.prepare('INSERT OR REPLACE INTO sbx_state (key, value) VALUES (?, ?)').run(key, value);
  }

  getKey(role: string): { publicKey: string; secret: string | null } | undefined {
    const r = this.db.prepare('SELECT * FROM sbx_keys WHERE role = ?').get(role) as Raw | undefined;
    return r && { publicKey: r.public_key as string, secret: (r.secret as string | null) ?? null };
  }

  putKey(role: string, publicKey: string, secret: string | null): void {
    this.db
      .prepare('INSERT OR REPLACE INTO sbx_keys (role, public_key, secret) VALUES (?, ?, ?)')
      .run(role, publicKey, secret);
  }
}
