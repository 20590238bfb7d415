import { prepared, sqlOf, type Sql, type SqlSource } from '../../db/sql.js';

/**
 * How old a server's cached keys and applications may be: every authenticated request needs its
 * key row and application, so each server caches them, yet a revocation, an exposure mark, a
 * deactivation or a new settlement address made on one server must hold on every server of the
 * database within a second (DESIGN §10).
 */
export const CHECK_EVERY_MS = 250;

const NAME = 'credentials';

const READ = prepared<{ generation: number | string }, { name: string }>((k, p) =>
  k.selectFrom('cache_generations').select('generation').where('name', '=', p('name')));

const BUMP = prepared<never, { name: string }>((k, p) =>
  k.updateTable('cache_generations').set((eb) => ({ generation: eb('generation', '+', 1) })).where('name', '=', p('name')));

/**
 * Every change to an API key or an application bumps one counter in the database, in the
 * change's own transaction (so a server that sees the new counter sees the change). A server reads
 * the counter at most every CHECK_EVERY_MS, on the first request that finds it due (that request
 * waits for the read; the others of the moment share it), and drops its caches when it moved: one
 * read of one row per server every 250 ms, not one per request.
 */
export class CacheFreshness {
  /**
   * Counts this server's drops: a row read before a drop must not be cached after it (reads are
   * asynchronous, so a drop can land between a read and its fill).
   */
  epoch = 0;
  private seen: string | null = null;
  private checkedAt = -Infinity;
  private checking: Promise<void> | null = null;
  private readonly listeners: Array<() => void> = [];

  constructor(private readonly sql: Sql, private readonly now: () => number = () => performance.now()) {}

  /** Called on every drop (a cache empties itself). */
  onDrop(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Nothing when the counter was read lately (most requests stay synchronous); else the read to wait for. */
  fresh(): Promise<void> | undefined {
    if (this.now() - this.checkedAt < CHECK_EVERY_MS) return undefined;
    return this.checking ??= this.check().finally(() => {
      this.checking = null;
    });
  }

  private async check(): Promise<void> {
    const startedAt = this.now();
    const row = await this.sql.get(READ, { name: NAME });
    const generation = String(row?.generation ?? 0);
    if (generation !== this.seen) {
      this.seen = generation;
      this.drop();
    }
    this.checkedAt = startedAt;
  }

  private drop(): void {
    this.epoch++;
    for (const listener of this.listeners) listener();
  }

  /**
   * Inside the changing transaction: other servers drop their caches once it commits; this one
   * at once, and again after the commit (a read outside the transaction may have cached the old
   * row meanwhile).
   */
  async bump(): Promise<void> {
    await this.sql.run(BUMP, { name: NAME });
    this.drop();
    this.sql.afterCommit(() => this.drop());
  }
}

const bySql = new WeakMap<Sql, CacheFreshness>();

/** One per database connection (each server has its own), shared by the key and application caches. */
export function freshnessOf(source: SqlSource): CacheFreshness {
  const sql = sqlOf(source);
  let freshness = bySql.get(sql);
  if (!freshness) bySql.set(sql, freshness = new CacheFreshness(sql));
  return freshness;
}
