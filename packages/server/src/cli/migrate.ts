import { isAbsolute, resolve } from 'node:path';
import { loadConfig } from '../config.js';
import { migrate as applyMigrations, openDatabase, schemaVersion } from '../db/connection.js';
import { stringFlag, type ParsedArgs } from './args.js';
import type { CliIo } from './context.js';

/**
 * `fundkit migrate [--db <file>]`: brings the database to this version's schema, printing each
 * migration it applies, and refuses (exit 1) a database a newer version already migrated. The
 * server migrates on start too; this is for deploys that migrate first and then roll out servers.
 * The database is --db, else FUNDKIT_DB, else the server's default (FUNDKIT_DATA_DIR/fundkit.db).
 */
export async function migrate(io: CliIo, args: ParsedArgs): Promise<number> {
  const configured = stringFlag(args, 'db') ?? loadConfig(io.env).dbPath;
  const path = isAbsolute(configured) ? configured : resolve(io.cwd, configured);
  const db = openDatabase(path, { migrate: false });
  try {
    const applied = applyMigrations(db);
    const { version, name } = schemaVersion(db);
    if (args.flags.json) io.stdout(`${JSON.stringify({ database: path, applied, version, migration: name })}\n`);
    else {
      for (const file of applied) io.stdout(`applied ${file}\n`);
      io.stdout(`${path}: ${applied.length > 0 ? 'now' : 'already'} at migration ${version}${name ? ` (${name})` : ''}\n`);
    }
    return 0;
  } finally {
    db.close();
  }
}
