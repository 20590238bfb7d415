import type { Db } from '../db/connection.js';
import { isoNow } from '../lib/time.js';

export interface WatchRow {
  address: string;
  network: string;
  provision_tx_hash: string | null;
  cursor: string;
}

/** Deposit accounts the observer follows, with the cursor of the last record processed. */
export class WatchRepo {
  constructor(private readonly db: Db) {}

  add(address: string, network: string, provisionTxHash: string | null): void {
    this.db.prepare('INSERT INTO deposit_watch (address, network, provision_tx_hash, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING')
      .run(address, network, provisionTxHash, isoNow());
  }

  find(address: string): WatchRow | undefined {
    return this.db.prepare('SELECT * FROM deposit_watch WHERE address = ?').get(address) as WatchRow | undefined;
  }

  /** Watched accounts whose deposit account exists and is not retired. */
  active(network: string): WatchRow[] {
    return this.db.prepare(`SELECT w.* FROM deposit_watch w JOIN deposit_accounts da ON da.address = w.address
      WHERE w.network = ? AND da.status != 'RETIRED'`).all(network) as WatchRow[];
  }

  /** Only forward: a record older than the cursor never moves it back. */
  advance(address: string, pagingToken: string): void {
    const row = this.find(address);
    if (row && row.cursor !== '' && BigInt(row.cursor) >= BigInt(pagingToken)) return;
    this.db.prepare('UPDATE deposit_watch SET cursor = ? WHERE address = ?').run(pagingToken, address);
  }
}
