import { bindAll, prepared, type Sql } from './sql/sql.js';

/** A transaction in the clocked ledger's queue (migration 025). */
export interface PendingRow {
  hash: string;
  source: string;
  envelope_xdr: string;
  ops: number;
  /** the ledger that took it; null while it waits */
  ledger: number | null;
  /** what the close made of it (JSON), once taken */
  outcome: string | null;
}

const BY_HASH = prepared<PendingRow, { hash: string }>((k, p) => k.selectFrom('sbx_pending').selectAll().where('hash', '=', p('hash')));
const WAITING_OF_SOURCE = prepared<{ hash: string }, { source: string }>((k, p) =>
  k.selectFrom('sbx_pending').select('hash').where('source', '=', p('source')).where('ledger', 'is', null));
const INSERT = prepared<never, Pick<PendingRow, 'hash' | 'source' | 'envelope_xdr' | 'ops'>>((k, p) =>
  k.insertInto('sbx_pending').values(bindAll(p, ['hash', 'source', 'envelope_xdr', 'ops'])));
const FORGET_TAKEN = prepared<never, { hash: string }>((k, p) =>
  k.deleteFrom('sbx_pending').where('hash', '=', p('hash')).where('ledger', 'is not', null));
const WAITING = prepared<PendingRow>((k) => k.selectFrom('sbx_pending').selectAll().where('ledger', 'is', null).orderBy('id'));
const COUNT_WAITING = prepared<{ n: number }>((k) => k.selectFrom('sbx_pending').select((eb) => eb.fn.countAll<number>().as('n')).where('ledger', 'is', null));
const TAKE = prepared<never, { hash: string; ledger: number; outcome: string }>((k, p) =>
  k.updateTable('sbx_pending').set({ ledger: p('ledger'), outcome: p('outcome') }).where('hash', '=', p('hash')).where('ledger', 'is', null));
const PRUNE = prepared<never, { before: number }>((k, p) => k.deleteFrom('sbx_pending').where('ledger', '<', p('before')));
const TAKEN_OF = prepared<Pick<PendingRow, 'hash' | 'outcome'>, { hashes: string[] }>((k, p, d) =>
  k.selectFrom('sbx_pending').select(['hash', 'outcome']).where(d.oneOf('hash', p('hashes'))).where('ledger', 'is not', null));

/** The clocked ledger's queue: what waits for a close, and what the closes made of it. */
export class PendingTransactions {
  constructor(private readonly sql: Sql) {}

  byHash(hash: string): Promise<PendingRow | undefined> {
    return this.sql.get(BY_HASH, { hash });
  }

  async sourceWaits(source: string): Promise<boolean> {
    return (await this.sql.get(WAITING_OF_SOURCE, { source })) !== undefined;
  }

  /** Queues a transaction; a taken one of the same hash (refused at its close) is forgotten first. */
  async add(row: Pick<PendingRow, 'hash' | 'source' | 'envelope_xdr' | 'ops'>): Promise<void> {
    await this.sql.run(FORGET_TAKEN, { hash: row.hash });
    await this.sql.run(INSERT, row);
  }

  /** Everything waiting, in arrival order. */
  waiting(): Promise<PendingRow[]> {
    return this.sql.all(WAITING);
  }

  async waitingCount(): Promise<number> {
    return Number((await this.sql.get(COUNT_WAITING))?.n ?? 0);
  }

  /** Records what a close made of a waiting transaction; false if it was not waiting (taken elsewhere). */
  async take(hash: string, ledger: number, outcome: string): Promise<boolean> {
    return await this.sql.run(TAKE, { hash, ledger, outcome }) === 1;
  }

  /** Outcomes are kept for the submits waiting on them, then dropped. */
  async prune(before: number): Promise<void> {
    await this.sql.run(PRUNE, { before });
  }

  /** Of these hashes, those a close took, with their outcomes. */
  taken(hashes: string[]): Promise<Array<Pick<PendingRow, 'hash' | 'outcome'>>> {
    return hashes.length === 0 ? Promise.resolve([]) : this.sql.all(TAKEN_OF, { hashes });
  }
}
