import { isAbsolute, resolve } from 'node:path';
import { isPostgresUrl, loadConfig } from '../config.js';
import { openDatabase } from '../db/connection.js';
import { describePostgres, migrate as applyMigrations, migratePostgres, schemaVersion } from '../db/migrate.js';
import { stringFlag, type ParsedArgs } from './args.js';
import type { CliIo } from './context.js';

interface Outcome {
  database: string;
  applied: string[];
  version: number;
  migration: string | null;
}

/**
 * `fundkit migrate [--db <file | postgres://…>]`: brings the database to this version's schema,
 * printing each migration it applies, and refuses (exit 1) a database a newer version already
 * migrated. The server migrates on start too; this is for deploys that migrate first and then
 * roll out servers. The database is --db, else FUNDKIT_DATABASE_URL (PostgreSQL), else FUNDKIT_DB,
 * else the server's default SQLite file (FUNDKIT_DATA_DIR/fundkit.db). On PostgreSQL, migrators
 * started together take turns (an advisory lock) and each migration applies once.
 */
export async function migrate(io: CliIo, args: ParsedArgs): Promise<number> {
  const config = loadConfig(io.env);
  const target = stringFlag(args, 'db') ?? config.databaseUrl ?? config.dbPath;
  const outcome = isPostgresUrl(target) ? await onPostgres(target) : onSqlite(isAbsolute(target) ? target : resolve(io.cwd, target));
  if (args.flags.json) io.stdout(`${JSON.stringify(outcome)}\n`);
  else {
    for (const name of outcome.applied) io.stdout(`applied ${name}\n`);
    const at = `migration ${outcome.version}${outcome.migration ? ` (${outcome.migration})` : ''}`;
    io.stdout(`${outcome.database}: ${outcome.applied.length > 0 ? 'now' : 'already'} at ${at}\n`);
  }
  return 0;
}

function onSqlite(path: string): Outcome {
  const db = openDatabase(path, { migrate: false });
  try {
    const applied = applyMigrations(db);
    const { version, name } = schemaVersion(db);
    return { database: path, applied, version, migration: name };
  } finally {
    db.close();
  }
}

async function onPostgres(url: string): Promise<Outcome> {
  const { applied, version, name } = await migratePostgres(url);
  return { database: describePostgres(url), applied, version, migration: name };
}
