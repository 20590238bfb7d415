/**
 * `fundkit-sandbox [--port 8000] [--ledger-seconds N] [--db path] [--json]`: the sandbox as a
 * standalone network on one port, as stellar/quickstart lays it out (Horizon at /, RPC at /rpc,
 * friendbot at /friendbot), until Ctrl-C. Its SQLite file defaults to
 * $FUNDKIT_DATA_DIR/sandbox.db (else .fundkit/sandbox.db); `--db :memory:` keeps nothing.
 */
import { isAbsolute, resolve } from 'node:path';
import { startStandaloneSandbox } from './standalone.js';

export interface ServeOptions {
  /** 0 picks a free port */
  port: number;
  /** seconds between ledger closes; 0 closes one ledger per transaction at once */
  ledgerSeconds: number;
  /** the SQLite file (absolute, or ':memory:') */
  dbPath: string;
  /** one JSON line once ready instead of the banner */
  json?: boolean;
}

export interface ServeIo {
  stdout(text: string): void;
  /** ends the network; without it, it runs until the process ends */
  signal?: AbortSignal;
}

/** Starts the network, prints where it is, and runs until `signal` aborts. */
export async function serveSandbox(options: ServeOptions, io: ServeIo): Promise<void> {
  const started = performance.now();
  const net = await startStandaloneSandbox({ dbPath: options.dbPath, port: options.port, ledgerSeconds: options.ledgerSeconds });
  const ms = Math.round(performance.now() - started);
  if (options.json) {
    io.stdout(`${JSON.stringify({ ready: true, horizon: `${net.url}/`, rpc: net.rpcUrl, friendbot: net.friendbotUrl, passphrase: net.passphrase, ledgerSeconds: options.ledgerSeconds, db: options.dbPath, readyMs: ms })}\n`);
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
}

const USAGE = `fundkit-sandbox — a local Stellar network (Horizon, Stellar RPC, friendbot) on one port
  fundkit-sandbox [--port 8000] [--ledger-seconds N] [--db <file>|:memory:] [--json]
      --port            0 picks a free one (default 8000)
      --ledger-seconds  seconds between ledger closes (default 0: one ledger per transaction, at once)
      --db              the chain's SQLite file (default $FUNDKIT_DATA_DIR/sandbox.db, else .fundkit/sandbox.db)
      --json            one JSON line with the URLs once ready, instead of the banner
`;

export class UsageError extends Error {}

function whole(name: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > max) throw new UsageError(`--${name} must be a whole number from 0 to ${max}, got "${raw}"`);
  return Number(raw);
}

/** The bin's arguments; `null` when --help asked for the usage. */
export function parseSandboxArgs(argv: string[], env: Record<string, string | undefined>, cwd: string): ServeOptions | null {
  const values: Record<string, string> = {};
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const match = /^--([a-z][a-z-]*)(?:=(.*))?$/.exec(argv[i]!);
    if (!match) throw new UsageError(`unexpected argument ${argv[i]}`);
    const name = match[1]!;
    if (name === 'help') return null;
    if (name === 'json') { json = true; continue; }
    if (!['port', 'ledger-seconds', 'db'].includes(name)) throw new UsageError(`unknown option --${name}`);
    const value = match[2] ?? argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    values[name] = value;
  }
  const db = values.db ?? `${env.FUNDKIT_DATA_DIR || '.fundkit'}/sandbox.db`;
  return {
    port: whole('port', values.port, 8000, 65535),
    ledgerSeconds: whole('ledger-seconds', values['ledger-seconds'], 0, 3600),
    dbPath: db === ':memory:' || isAbsolute(db) ? db : resolve(cwd, db),
    json,
  };
}

/** The bin: runs until SIGINT or SIGTERM; the exit code (2: usage). */
export async function runSandboxCli(argv: string[]): Promise<number> {
  let options: ServeOptions | null;
  try {
    options = parseSandboxArgs(argv, process.env, process.cwd());
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (!options) {
    process.stdout.write(USAGE);
    return 0;
  }
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
  await serveSandbox(options, { stdout: (text) => process.stdout.write(text), signal: stop.signal });
  return 0;
}
