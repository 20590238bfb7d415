import { prepared, sqlOf, type Sql, type SqlSource } from '../../db/sql.js';

const DISABLED = prepared<{ code: string }>((k) => k.selectFrom('asset_settings').select('code').where('enabled', '=', 0));

const SET_ENABLED = prepared<never, { code: string; enabled: number; at: string }>((k, p) => k.insertInto('asset_settings')
  .values({ code: p('code'), enabled: p('enabled'), updated_at: p('at') })
  .onConflict((oc) => oc.column('code').doUpdateSet((eb) => ({ enabled: eb.ref('excluded.enabled'), updated_at: eb.ref('excluded.updated_at') }))));

/**
 * Which supported assets the operator disabled (all enabled by default). Every asset read and
 * every intent creation asks, and only `setEnabled` writes the table, so the set is read once
 * and kept until the next `setEnabled`.
 */
export class AssetsRepo {
  private disabled: ReadonlySet<string> | null = null;
  /** bumped by every write: a read that began before it must not keep what it read */
  private generation = 0;
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  async disabledCodes(): Promise<ReadonlySet<string>> {
    if (this.disabled) return this.disabled;
    const generation = this.generation;
    const read = new Set(await this.sql.column(DISABLED));
    if (generation === this.generation) this.disabled = read;
    return read;
  }

  async setEnabled(code: string, enabled: boolean, at: string): Promise<void> {
    const drop = () => {
      this.generation++;
      this.disabled = null;
    };
    drop();
    await this.sql.run(SET_ENABLED, { code, enabled: enabled ? 1 : 0, at });
    drop();
    this.sql.afterCommit(drop);
  }
}
