/** What /readyz and /metrics read of the database: cheap aggregates on indexed status columns. */
import { sql as kysql } from 'kysely';
import { prepared, sqlOf, type Sql, type SqlSource } from '../db/sql.js';
import { MIGRATIONS } from '../db/migrations/index.js';

export interface QueueRow {
  n: number | string | bigint;
  oldest: string | null;
}

const ping = prepared<{ one: number }>((k) => k.selectNoFrom(kysql<number>`1`.as('one')));
const latestMigration = prepared<{ version: number | null }>((k) => k.selectFrom('schema_migrations').select((eb) => eb.fn.max('version').as('version')));

const queue = (table: 'deposit_accounts' | 'settlements' | 'refunds' | 'webhook_deliveries', statuses: string[]) => prepared<QueueRow>((k) =>
  k.selectFrom(table).select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('created_at').as('oldest')]).where('status', 'in', statuses));

const QUEUES = {
  // accounts of intents that found the deposit pool empty, not yet on chain (a burst's backlog)
  deposit_accounts: queue('deposit_accounts', ['PROVISIONING']),
  settlements: queue('settlements', ['PENDING', 'SUBMITTED']),
  refunds: queue('refunds', ['PENDING', 'PROCESSING']),
  webhook_deliveries_pending: queue('webhook_deliveries', ['PENDING']),
  webhook_deliveries_failed: queue('webhook_deliveries', ['FAILED']),
};

export type QueueName = keyof typeof QUEUES;

export class OpsRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  async ping(): Promise<void> {
    await this.sql.get(ping);
  }

  /** The newest migration applied, against the newest this version of the server knows. */
  async migrations(): Promise<{ applied: number; known: number }> {
    const row = await this.sql.get(latestMigration);
    return { applied: Number(row?.version ?? 0), known: Math.max(...MIGRATIONS.map((m) => m.version)) };
  }

  async queues(): Promise<Map<QueueName, { depth: number; oldest: string | null }>> {
    const out = new Map<QueueName, { depth: number; oldest: string | null }>();
    for (const [name, query] of Object.entries(QUEUES) as [QueueName, typeof QUEUES.settlements][]) {
      const row = await this.sql.get(query);
      out.set(name, { depth: Number(row?.n ?? 0), oldest: row?.oldest ?? null });
    }
    return out;
  }
}
