import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import pg from 'pg';
import { isPostgresUrl, loadConfig, type Config } from '../config.js';
import { openDatabase } from '../db/connection.js';
import { describePostgres, migrate as applyMigrations, migratePostgres, schemaVersion } from '../db/migrate.js';
import { mismatch, READ_RECORDED_NETWORK, type NetworkIdentity, type RecordedNetwork } from '../stellar/followed-network.js';
import { createRpcNetwork } from '../stellar/rpc/index.js';
import { SANDBOX_PASSPHRASE } from '../stellar/sandbox/ledger.js';
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
  const refusal = await refusalOf(io.env, config, isPostgresUrl(target) ? await recordedOnPostgres(target) : recordedOnSqlite(isAbsolute(target) ? target : resolve(io.cwd, target)));
  if (refusal) {
    io.stderr(`fundkit: ${refusal}\n`);
    return 1;
  }
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

/**
 * A migrate pointed at another network than the database's (FUNDKIT_STELLAR, or a
 * FUNDKIT_SANDBOX_NETWORK whose chain it reads) refuses before it migrates. Without either set it
 * names no network and checks nothing: a deploy may migrate with only the database's URL.
 */
async function refusalOf(env: CliIo['env'], config: Config, recorded: RecordedNetwork | null): Promise<string | null> {
  if (!recorded || (!env.FUNDKIT_STELLAR && !env.FUNDKIT_SANDBOX_NETWORK)) return null;
  return mismatch(recorded, await configuredNetwork(config), 'fundkit migrate');
}

async function configuredNetwork(config: Config): Promise<NetworkIdentity> {
  const setting = config.sandboxNetwork;
  if (config.stellar !== 'sandbox') {
    const profile = config.network!;
    return { kind: profile.kind, passphrase: profile.passphrase, firstLedger: null, source: (profile.api === 'rpc' ? profile.rpcUrl : profile.horizonUrl) ?? profile.kind };
  }
  if (setting.mode !== 'url') return { kind: 'sandbox', passphrase: SANDBOX_PASSPHRASE, firstLedger: null, source: 'the sandbox' };
  const network = createRpcNetwork({ kind: 'sandbox', passphrase: SANDBOX_PASSPHRASE, rpcUrl: `${setting.url}/rpc`, horizonUrl: null, friendbotUrl: null, issuers: { USDC: '', EURC: '' }, api: 'rpc' });
  // a sandbox that does not answer leaves the chain unchecked here: the servers check it at start
  const firstLedger = await network.firstLedger().catch(() => null);
  return { kind: 'sandbox', passphrase: SANDBOX_PASSPHRASE, firstLedger, source: `the \`fundkit sandbox\` at ${setting.url} (FUNDKIT_SANDBOX_NETWORK)` };
}

/** The database's record (migration 033), read before migrating: null where it has none, or not the table yet. */
function recordedOnSqlite(path: string): RecordedNetwork | null {
  if (path !== ':memory:' && !existsSync(path)) return null;
  const db = openDatabase(path, { migrate: false });
  try {
    return (db.prepare(READ_RECORDED_NETWORK).get() as RecordedNetwork | undefined) ?? null;
  } catch (error) {
    if (/no such table/.test((error as Error).message)) return null;
    throw error;
  } finally {
    db.close();
  }
}

async function recordedOnPostgres(url: string): Promise<RecordedNetwork | null> {
  const client = new pg.Client({ connectionString: url });
  // a database that cannot be reached says so in migratePostgres, as before
  if (await client.connect().then(() => false, () => true)) return null;
  try {
    return (await client.query<RecordedNetwork>(READ_RECORDED_NETWORK)).rows[0] ?? null;
  } catch (error) {
    if ((error as { code?: string }).code === '42P01') return null; // undefined_table
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}
