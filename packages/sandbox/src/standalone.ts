/**
 * The sandbox as a network of its own, on one port in stellar/quickstart's layout: Horizon at
 * `/`, Stellar RPC at `/rpc`, friendbot at `/friendbot`, with its own SQLite file. The
 * `fundkit-sandbox` bin (cli.ts) and `fundkit sandbox` run it; tests start it in-process on port 0.
 */
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import express from 'express';
import { cachePreparedStatements } from './sql/connection.js';
import { assetKey } from './shared/assets.js';
import { sandboxApiPaths } from './api-paths.js';
import { createFaucetRouter } from './faucet-router.js';
import { createFriendbotRouter } from './friendbot.js';
import { bootstrapSandbox, type SandboxKeys } from './genesis.js';
import { createSandboxHorizonRouter } from './horizon/router.js';
import { SandboxLedger } from './ledger.js';
import { createSandboxRpcRouter } from './rpc/router.js';
import { SANDBOX_ASSETS } from './sandbox-assets.js';

export interface StandaloneOptions {
  /** SQLite file of this sandbox (':memory:' for a throwaway one). */
  dbPath: string;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Seconds between ledger closes; 0 closes one ledger per transaction at once. */
  ledgerSeconds?: number;
  /** operations one ledger applies at most */
  maxOpsPerLedger?: number;
  /** the market maker's rate table; the sandbox default when absent */
  rates?: Record<string, string> | null;
}

export interface StandaloneSandbox {
  /** Horizon's URL (the root); rpcUrl and friendbotUrl hang off it. */
  url: string;
  rpcUrl: string;
  friendbotUrl: string;
  passphrase: string;
  ledger: SandboxLedger;
  keys: SandboxKeys;
  server: Server;
  /** The lines `fundkit sandbox` prints once it is ready. */
  banner(): string;
  close(): Promise<void>;
}

/**
 * One ledger a file: the file is held exclusively (SQLite's exclusive locking mode, released by
 * the operating system when the process ends, SIGKILL included), so a second sandbox on the same
 * file fails at start instead of forking the chain.
 */
function openFile(path: string): Database.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    db.exec('BEGIN IMMEDIATE; COMMIT');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    throw new Error(`the sandbox file ${path} is in use by another sandbox (a server in sandbox mode, or \`fundkit sandbox\`). `
      + 'Servers that share one database share one sandbox: run `pnpm fundkit sandbox` once and set FUNDKIT_SANDBOX_NETWORK to its URL on each; or give each its own FUNDKIT_SANDBOX_DB');
  }
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  if (path !== ':memory:') db.pragma('mmap_size = 268435456');
  // as the server's own connection: without it every query compiled its SQL again (a third of
  // the sandbox thread's time under creates, measured with --cpu-prof)
  cachePreparedStatements(db);
  return db;
}

export interface SandboxOptions extends Partial<StandaloneOptions> {}

/**
 * A sandbox network on `port` (0, the default: a free one) of 127.0.0.1, its chain in `dbPath`
 * (':memory:', the default: gone when closed); its URLs are on what it returns.
 */
export function startSandbox(options: SandboxOptions = {}): Promise<StandaloneSandbox> {
  return startStandaloneSandbox({ ...options, dbPath: options.dbPath ?? ':memory:', port: options.port ?? 0 });
}

export async function startStandaloneSandbox(options: StandaloneOptions): Promise<StandaloneSandbox> {
  const db = openFile(options.dbPath);
  const ledger = new SandboxLedger(db, { ledgerSeconds: options.ledgerSeconds ?? 0, ...(options.maxOpsPerLedger ? { maxOpsPerLedger: options.maxOpsPerLedger } : {}) });
  let server: Server | undefined;
  try {
    const keys = await bootstrapSandbox(ledger, options.rates ? { rates: options.rates } : {});
    const host = options.host ?? '127.0.0.1';
    const app = express();
    app.disable('x-powered-by');
    app.set('etag', false);
    app.set('query parser', 'simple');
    // a Fundkit server in sandbox mode forwards its /sandbox/* here: links name its host
    app.set('trust proxy', 'loopback');
    const urls = { url: '', rpcUrl: '', friendbotUrl: '' };
    // quickstart's paths; the friendbot is also where Horizon.Server#friendbot looks (`${horizon}/friendbot`)
    // one friendbot (its grants queue on one account's sequence) under every path
    const friendbot = createFriendbotRouter(ledger, keys.friendbot);
    app.use('/friendbot', friendbot);
    app.use('/rpc', createSandboxRpcRouter(ledger, { friendbotUrl: (req) => `${req.protocol}://${req.get('host')}/friendbot` }));
    const horizon = createSandboxHorizonRouter(ledger);
    // and the paths a Fundkit server in sandbox mode serves (it forwards them here unchanged);
    // the friendbot's answer links its transaction under /sandbox/horizon
    app.use(sandboxApiPaths(ledger, friendbot, horizon));
    app.use('/sandbox/faucet', createFaucetRouter(ledger));
    // what a Fundkit server pointed here (FUNDKIT_SANDBOX_NETWORK=<url>) checks and adapts to
    app.get('/sandbox/info', (_req, res) => {
      res.json({ passphrase: ledger.passphrase, ledger_seconds: options.ledgerSeconds ?? 0, assets: (['USDC', 'EURC'] as const).map((code) => assetKey(SANDBOX_ASSETS[code])) });
    });
    app.use('/', horizon);
    server = app.listen(options.port, host);
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    urls.url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    urls.rpcUrl = `${urls.url}/rpc`;
    urls.friendbotUrl = `${urls.url}/friendbot`;
    ledger.start();
    const s = server;
    return {
      ...urls,
      passphrase: ledger.passphrase,
      ledger,
      keys,
      server: s,
      banner: () => [
        'Fundkit sandbox — a Stellar network of its own (stellar/quickstart layout)',
        `  Horizon     ${urls.url}/`,
        `  Stellar RPC ${urls.rpcUrl}`,
        `  Friendbot   ${urls.friendbotUrl}?addr=G…  (&asset=USDC or &asset=EURC for those, after a trustline)`,
        `  Passphrase  ${ledger.passphrase}`,
        ...(['USDC', 'EURC'] as const).map((code) => `  Asset       ${assetKey(SANDBOX_ASSETS[code])}`),
        `  Ledgers     ${options.ledgerSeconds ? `close every ${options.ledgerSeconds} s` : 'one per transaction, closed at once'}`,
        `  Database    ${options.dbPath}`,
      ].join('\n'),
      close: async () => {
        await ledger.stop();
        s.closeAllConnections();
        await new Promise((resolve) => s.close(resolve));
        db.close();
      },
    };
  } catch (error) {
    server?.close();
    await ledger.stop();
    db.close();
    throw error;
  }
}
