import { dynamic, prepared, sqlOf, type Sql, type SqlSource } from '../db/sql.js';
import { isoNow } from '../lib/time.js';

export interface WatchRow {
  address: string;
  network: string;
  provision_tx_hash: string | null;
  cursor: string;
}

const ADD = prepared<never, { address: string; network: string; provisionTxHash: string | null; at: string }>((k, p) =>
  k.insertInto('deposit_watch').values({ address: p('address'), network: p('network'), provision_tx_hash: p('provisionTxHash'), created_at: p('at') })
    .onConflict((oc) => oc.doNothing()));

const FIND = prepared<WatchRow, { address: string }>((k, p) => k.selectFrom('deposit_watch').selectAll().where('address', '=', p('address')));

const ACTIVE = prepared<WatchRow, { network: string }>((k, p) => k.selectFrom('deposit_watch as w')
  .innerJoin('deposit_accounts as da', 'da.address', 'w.address').selectAll('w').where('w.network', '=', p('network')).where('da.status', '!=', 'RETIRED'));

/** Deposit accounts the ledger follower matches payments against (`cursor`: where a stream per account had got to, before the follower; read once, at an upgrade). */
export class WatchRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  async add(address: string, network: string, provisionTxHash: string | null): Promise<void> {
    await this.sql.run(ADD, { address, network, provisionTxHash, at: isoNow() });
  }

  async find(address: string): Promise<WatchRow | undefined> {
    return this.sql.get(FIND, { address });
  }

  /** Watched accounts whose deposit account exists and is not retired. */
  async active(network: string): Promise<WatchRow[]> {
    return this.sql.all(ACTIVE, { network });
  }

  /**
   * Which of `addresses` are deposit accounts (not retired) or collection accounts Fundkit follows on `network`: the
   * ledger follower's one lookup per ledger read, however many accounts are watched.
   */
  async watchedAmong(network: string, addresses: string[]): Promise<Set<string>> {
    const watched = new Set<string>();
    // in slices: a busy pubnet ledger pays thousands of addresses, past SQLite's bound parameters
    for (let i = 0; i < addresses.length; i += 500) {
      const slice = addresses.slice(i, i + 500);
      const found = await this.sql.all(dynamic<{ address: string }>((k) => k.selectFrom('deposit_watch as w')
        .innerJoin('deposit_accounts as da', 'da.address', 'w.address').select('w.address').where('w.network', '=', network)
        .where('w.address', 'in', slice).where('da.status', '!=', 'RETIRED')
        // collection accounts (muxed deposits) are watched for good; the observer attributes by muxed id
        .union(k.selectFrom('collection_accounts').select('address').where('network', '=', network).where('address', 'in', slice))));
      for (const row of found) watched.add(row.address);
    }
    return watched;
  }
}
