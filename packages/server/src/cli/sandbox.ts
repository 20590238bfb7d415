/**
 * `fundkit sandbox [--port 8000] [--ledger-seconds N] [--db path]`: @fundkit/sandbox's standalone
 * network (its `fundkit-sandbox` bin) with the server's data dir: its SQLite file defaults to the
 * data dir's sandbox.db.
 */
import { isAbsolute, resolve } from 'node:path';
import { serveSandbox } from '@fundkit/sandbox';
import { loadConfig } from '../config.js';
import { stringFlag, UsageError, type ParsedArgs } from './args.js';
import type { CliIo } from './context.js';

function integerFlag(args: ParsedArgs, name: string, fallback: number, max: number): number {
  const raw = stringFlag(args, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > max) throw new UsageError(`--${name} must be a whole number from 0 to ${max}, got "${raw}"`);
  return Number(raw);
}

export async function sandbox(io: CliIo, args: ParsedArgs): Promise<number> {
  const port = integerFlag(args, 'port', 8000, 65535);
  const ledgerSeconds = integerFlag(args, 'ledger-seconds', 0, 3600);
  const db = stringFlag(args, 'db') ?? `${loadConfig(io.env).dataDir}/sandbox.db`;
  const dbPath = db === ':memory:' || isAbsolute(db) ? db : resolve(io.cwd, db);
  await serveSandbox({ dbPath, port, ledgerSeconds, json: Boolean(args.flags.json) }, { stdout: io.stdout, ...(io.signal ? { signal: io.signal } : {}) });
  return 0;
}
