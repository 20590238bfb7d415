/**
 * A database the removed in-process sandbox wrote its chain into (migrations 020 and 025's sbx_
 * tables, FUNDKIT_SANDBOX_NETWORK=in-process or the default on such a database). The sandbox now
 * runs beside the server with its own file, reached over HTTP, and the server's database holds no
 * chain: migration 036 drops the sbx_ tables. A database whose tables hold a chain is refused
 * before 036 instead: its treasury and deposit accounts exist only on that chain, and a server
 * that went on would watch a new chain where none of them exist. The money on it was test money,
 * so the way on is a fresh database; nothing is dropped until the operator chooses.
 */
import type pg from 'pg';
import { ConfigError } from '../config.js';
import type { Db } from './connection.js';

/** The migration that drops the sandbox's tables; the check runs before it. */
export const DROP_SANDBOX_VERSION = 36;

/** A table genesis always writes to (accounts), and the one each closed ledger adds to. */
const CHAIN_TABLES = ['sbx_accounts', 'sbx_ledgers'] as const;

export class LegacySandboxChainError extends ConfigError {}

/** `fresh`: how to start on a fresh database of that engine. */
function legacyChainError(database: string, fresh: string): LegacySandboxChainError {
  return new LegacySandboxChainError(`the database ${database} holds the chain of the in-process sandbox (its sbx_ tables), which this Fundkit no longer runs: `
    + 'the sandbox now runs in its own thread (or a `pnpm fundkit sandbox`) with a chain of its own, where this database\'s treasury and deposit accounts do not exist. '
    + `Its money was test money: start on a fresh database (${fresh}). `
    + 'To finish with what it holds first (payments, refunds, reports), run the Fundkit version you used with it.');
}

/** SQLite, before 036: refuses a database whose sandbox tables hold a chain (tables absent: nothing to refuse). */
export function refuseSqliteChain(db: Db): void {
  for (const table of CHAIN_TABLES) {
    const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
    if (exists && db.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get()) throw legacyChainError(db.name, `stop the server and delete ${db.name} with its -wal and -shm files, or point FUNDKIT_DB at a new file`);
  }
}

/** PostgreSQL, before 036: the same (to_regclass: the table as the search path finds it, or null). */
export async function refusePostgresChain(client: pg.Client, database: string): Promise<void> {
  for (const table of CHAIN_TABLES) {
    const { rows } = await client.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [table]);
    if (rows[0]?.found && (await client.query(`SELECT 1 FROM ${table} LIMIT 1`)).rowCount) throw legacyChainError(database, 'point FUNDKIT_DATABASE_URL at a new, empty database');
  }
}
