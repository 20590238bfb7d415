import { prepared, sqlOf, type Sql, type SqlSource } from '../db/sql.js';
import { isoNow } from '../lib/time.js';

const GET = prepared<{ ledger: number }, { network: string }>((k, p) =>
  k.selectFrom('network_cursors').select('ledger').where('network', '=', p('network')));

const INSERT = prepared<never, { network: string; ledger: number; at: string }>((k, p) =>
  k.insertInto('network_cursors').values({ network: p('network'), ledger: p('ledger'), updated_at: p('at') }).onConflict((oc) => oc.doNothing()));

const ADVANCE = prepared<never, { network: string; ledger: number; at: string }>((k, p) =>
  k.updateTable('network_cursors').set({ ledger: p('ledger'), updated_at: p('at') }).where('network', '=', p('network')).where('ledger', '<', p('ledger')));

/** The ledger follower's cursor: the last ledger of the network whose payments are all processed. */
export class CursorRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  async get(network: string): Promise<number | null> {
    return (await this.sql.get(GET, { network }))?.ledger ?? null;
  }

  /** Sets the first cursor unless one exists (another server may have set it): returns the cursor in force. */
  async init(network: string, ledger: number): Promise<number> {
    await this.sql.run(INSERT, { network, ledger, at: isoNow() });
    return (await this.get(network))!;
  }

  /** Only forward: two followers (a takeover) never move it back. */
  async advance(network: string, ledger: number): Promise<void> {
    await this.sql.run(ADVANCE, { network, ledger, at: isoNow() });
  }
}
