/**
 * `fundkit sandbox [--port 8000] [--ledger-seconds N] [--db path]`: the sandbox ledger as a
 * standalone network on one port, as stellar/quickstart lays it out (Horizon at /, RPC at /rpc,
 * friendbot at /friendbot), until Ctrl-C. Its SQLite file defaults to the data dir's sandbox.db.
 */
import { isAbsolute, resolve } from 'node:path';
import { loadConfig } from '../config.js';
import { startStandaloneSandbox } from '../stellar/sandbox/standalone.js';
import { stringFlag, UsageError, type ParsedArgs } from './args.js';
import type { CliIo } from './context.js';

function integerFlag(args: ParsedArgs, name: string, fallback: number, max: number): number {
  const raw = stringFlag(args, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > max) throw new UsageError(`--${name} must be a whole number from 0 to ${max}, got "${raw}"`);
  return Number(raw);
}

export async function sandbox(io: CliIo, args: ParsedArgs): Promise<number> {
  const started = performance.now();
  const port = integerFlag(args, 'port', 8000, 65535);
  const ledgerSeconds = integerFlag(args, 'ledger-seconds', 0, 3600);
  const db = stringFlag(args, 'db') ?? `${loadConfig(io.env).dataDir}/sandbox.db`;
  const dbPath = db === ':memory:' || isAbsolute(db) ? db : resolve(io.cwd, db);
  const net = await startStandaloneSandbox({ dbPath, port, ledgerSeconds });
  const ms = Math.round(performance.now() - started);
  if (args.flags.json) {
    io.stdout(`${JSON.stringify({ ready: true, horizon: `${net.url}/`, rpc: net.rpcUrl, friendbot: net.friendbotUrl, passphrase: net.passphrase, ledgerSeconds, db: dbPath, readyMs: ms })}\n`);
  } else {
    io.stdout(`${net.banner()}\nready in ${ms} ms (Ctrl-C stops it)\n`);
  }
  const signal = io.signal;
  await new Promise((done) => {
    if (!signal) return; // no way to be stopped but ending the process
    if (signal.aborted) done(undefined);
    else signal.addEventListener('abort', done, { once: true });
  });
  await net.close();
  return 0;
}
