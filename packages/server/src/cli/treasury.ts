import { isAbsolute, resolve } from 'node:path';
import { pino } from 'pino';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { openDataStore } from '../db/store.js';
import { deriveKey } from '../lib/crypto.js';
import { fromStroops } from '../lib/money.js';
import { resolveMasterKey } from '../master-key.js';
import { DepositPoolRepo } from '../pipeline/deposit-pool-repo.js';
import { setupNetwork, setupSandboxMode, type StellarSetup } from '../pipeline/stellar.js';
import type { Sql } from '../db/sql.js';
import {
  assess, nativeBalance, POOL_ASSETS, shortfallMessage, TRUSTED_ASSETS, trustline, xlm, type Assessment,
} from '../treasury/assess.js';
import { fundTreasury, FundError } from '../treasury/fund.js';
import { channelAddresses, inspectTreasury, poolReady } from '../treasury/inspect.js';
import { stringFlag, UsageError, type ParsedArgs } from './args.js';
import type { CliIo } from './context.js';
import { CollectionRepo, type CollectionAccountRow } from '../pipeline/collection-repo.js';
import { onboardCollections } from '../pipeline/collections.js';
import { TreasurySigner } from '../pipeline/tx.js';

/**
 * `fundkit treasury [--fund] [--json] [--db <file | postgres://…>]`: the platform treasury of the
 * configured network (FUNDKIT_STELLAR, the database, FUNDKIT_MASTER_KEY: the server's own
 * configuration), read from the network, and what it lacks for the deposit pool
 * (FUNDKIT_DEPOSIT_POOL_SIZE per asset) and the channel accounts (FUNDKIT_TREASURY_CHANNELS).
 * The treasury key is created when the database has none, as the server's start does.
 * With --collections, once the treasury holds what it needs, it makes the collection accounts
 * `muxed` intents are paid to (one per asset, once; pipeline/collections.ts).
 * Exit 0: nothing missing; 1: something is (or the network could not be read); 2: bad usage, or a
 * database that follows another network than the configured one.
 */
export async function treasury(io: CliIo, args: ParsedArgs): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError('usage: fundkit treasury [--fund] [--collections] [--json] [--db <file | postgres://…>]');
  const config = configOf(io, args);
  const json = args.flags.json === true;
  const say = (line: string) => { if (!json) io.stdout(`${line}\n`); };
  // the server's own warnings (a development master key generated here) go to stderr
  const logger = pino({ level: 'warn', base: null }, { write: (line: string) => io.stderr(line) });
  const masterKey = resolveMasterKey(config, logger);
  const store = await openDataStore(config, logger);
  let setup: StellarSetup | null = null;
  try {
    try {
      setup = await stellarSetup(store.sql, config, deriveKey(masterKey, 'stellar-keys'));
    } catch (error) {
      // a database that follows another network (pipeline/network-identity.ts): as the server, refused with what to do
      if (!(error instanceof ConfigError)) throw error;
      io.stderr(`fundkit: ${error.message}\n`);
      return 2;
    }
    const { network, treasury: keypair } = setup;
    const repo = new DepositPoolRepo(store.sql);
    const read = async () => assess(await inspectTreasury({
      network, treasury: keypair.publicKey(), channels: channelAddresses(keypair, config.treasuryChannels),
      poolSize: config.depositPoolSize, ready: poolReady(repo, network),
    }));
    let report = await read();
    if (args.flags.fund === true && !report.ok) {
      if (network.kind === 'pubnet' && report.shortfall > 0n) {
        io.stderr(`fundkit: --fund is refused on pubnet: it has no friendbot. Fund the treasury yourself: send ${xlm(report.shortfall)} XLM to ${keypair.publicKey()}`
          + `${report.missingTrustlines.length ? ', then run fundkit treasury --fund again to add its trustlines' : ''}.\n`);
        return 2;
      }
      const fund = (friendbotUrl: string) => fundTreasury({ network, treasury: keypair, friendbotUrl, channels: config.treasuryChannels, say }, report);
      try {
        if (setup.sandbox) await fund(`${setup.sandbox.url}/friendbot`);
        else if (config.network?.friendbotUrl) await fund(config.network.friendbotUrl);
        else throw new FundError(`the ${network.kind} network has no friendbot (set FUNDKIT_FRIENDBOT_URL): fund ${keypair.publicKey()} with ${xlm(report.shortfall)} XLM yourself`);
      } catch (error) {
        if (!(error instanceof FundError)) throw error;
        io.stderr(`fundkit: ${error.message}\n`);
      }
      report = await read();
    }
    const collectionRepo = new CollectionRepo(store.sql);
    if (args.flags.collections === true && report.ok) {
      await onboardCollections({
        repo: collectionRepo, network, networkName: network.kind, signer: new TreasurySigner(network, keypair, { channels: config.treasuryChannels }),
        secretsKey: deriveKey(masterKey, 'deposit-account-secrets'),
      });
    }
    const collections = await collectionRepo.all(network.kind);
    if (json) io.stdout(`${JSON.stringify({ ...toJson(report), collection_accounts: collections.map(({ asset, address, status }) => ({ asset, address, status })) })}\n`);
    else io.stdout(render(report, config) + renderCollections(collections));
    return report.ok ? 0 : 1;
  } finally {
    await setup?.sandbox?.close();
    await store.close();
  }
}

function configOf(io: CliIo, args: ParsedArgs): Config {
  const db = stringFlag(args, 'db');
  const env = { ...io.env, ...(db ? (/^postgres(ql)?:/.test(db) ? { FUNDKIT_DATABASE_URL: db } : { FUNDKIT_DB: db, FUNDKIT_DATABASE_URL: '' }) : {}) };
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  // relative paths are the operator's working directory's, as for the server started there
  const at = (path: string) => (path === ':memory:' || isAbsolute(path) ? path : resolve(io.cwd, path));
  return { ...config, dbPath: at(config.dbPath), dataDir: at(config.dataDir) };
}

/** The server's own wiring (pipeline/stellar.ts): the same treasury key, created if absent. */
function stellarSetup(sql: Sql, config: Config, stellarKeys: Buffer): Promise<StellarSetup> {
  if (config.stellar === 'sandbox') return setupSandboxMode(sql, stellarKeys, config, pino({ level: 'silent' }));
  return setupNetwork(sql, stellarKeys, config.network!);
}

function renderCollections(rows: CollectionAccountRow[]): string {
  if (rows.length === 0) return 'Collection accounts (muxed deposits): none yet (fundkit treasury --collections makes them once the treasury is funded)\n';
  return `Collection accounts (muxed deposits):\n${rows.map((r) => `  ${r.asset.padEnd(5)} ${r.address}  ${r.status}`).join('\n')}\n`;
}

function toJson(a: Assessment) {
  const { state } = a;
  return {
    object: 'treasury_report',
    network: state.network,
    address: state.address,
    exists: state.account !== null,
    xlm: fromStroops(a.xlm),
    balances: (state.account?.balances ?? []).map((b) => ({ asset: b.asset.code, issuer: b.asset.issuer, balance: fromStroops(b.balance) })),
    trustlines: TRUSTED_ASSETS.map((code) => {
      const line = trustline(state.account, state.assets[code]);
      return { asset: code, issuer: state.assets[code].issuer, present: line !== null, balance: line ? fromStroops(line.balance) : null };
    }),
    channels: state.channels.map((c, index) => ({ index, address: c.address, exists: c.account !== null, xlm: c.account ? fromStroops(nativeBalance(c.account)) : null })),
    pool: { size_per_asset: state.pool.size, ready: state.pool.ready, to_create: a.poolToCreate },
    needs: a.needs.map((n) => ({ item: n.item, label: n.label, count: n.count, each_xlm: fromStroops(n.each), xlm: fromStroops(n.total) })),
    required_xlm: fromStroops(a.required),
    shortfall_xlm: fromStroops(a.shortfall),
    missing_trustlines: a.missingTrustlines,
    ok: a.ok,
    missing: a.ok ? null : shortfallMessage(a),
  };
}

function render(a: Assessment, config: Config): string {
  const { state } = a;
  const lines: string[] = [];
  const pad = (s: string, n: number) => s.padEnd(n);
  lines.push(`Treasury (${state.network}): ${state.address}`);
  lines.push(`  account     ${state.account ? 'exists' : 'NOT ON THE NETWORK'}`);
  lines.push(`  XLM         ${xlm(a.xlm)}`);
  for (const code of TRUSTED_ASSETS) {
    const line = trustline(state.account, state.assets[code]);
    lines.push(`  ${pad(code, 12)}${line ? `${xlm(line.balance)} (trustline to ${state.assets[code].issuer})` : `no trustline (issuer ${state.assets[code].issuer})`}`);
  }
  lines.push(`Channel accounts (${state.channels.length}, FUNDKIT_TREASURY_CHANNELS):`);
  state.channels.forEach((c, i) => lines.push(`  ${String(i).padStart(2)} ${c.address}  ${c.account ? `${xlm(nativeBalance(c.account))} XLM` : 'not created yet'}`));
  lines.push(`Deposit pool (${state.pool.size} per asset, FUNDKIT_DEPOSIT_POOL_SIZE): ${POOL_ASSETS.map((x) => `${x} ${state.pool.ready[x]} ready`).join(', ')}`);
  lines.push('XLM the treasury needs:');
  const rows = a.needs.filter((n) => n.count > 0 || n.item === 'account');
  for (const n of rows) lines.push(`  ${pad(`${n.count} × ${xlm(n.each)}`, 14)}${pad(xlm(n.total), 12)}${n.label}`);
  lines.push(`  ${pad('', 14)}${pad(xlm(a.required), 12)}required`);
  lines.push(`  ${pad('', 14)}${pad(xlm(a.xlm), 12)}balance`);
  lines.push('');
  if (a.ok) lines.push(`Nothing missing: the treasury holds what ${config.depositPoolSize} pool accounts per asset and ${config.treasuryChannels} channels need.`);
  else {
    const what = [
      ...(state.account ? [] : ['the account']),
      ...(a.shortfall > 0n ? [`${xlm(a.shortfall)} XLM`] : []),
      ...(a.missingTrustlines.length ? [`trustlines to ${a.missingTrustlines.join(', ')}`] : []),
    ];
    lines.push(`MISSING: ${what.join('; ')}`);
    if (a.shortfall > 0n) lines.push(`  needs ${xlm(a.shortfall)} XLM more: ${rows.filter((n) => n.count > 0).map((n) => `${n.count} ${n.item === 'account' ? 'reserves' : n.item.replace('pool_', 'pool ')} × ${xlm(n.each)}`).join(' + ')} − balance ${xlm(a.xlm)}`);
    lines.push(state.network === 'pubnet'
      ? `  fund it yourself (pubnet has no friendbot): send ${xlm(a.shortfall)} XLM to ${state.address}${a.missingTrustlines.length ? '; then fundkit treasury --fund adds the trustlines' : ''}`
      : '  fix: pnpm fundkit treasury --fund');
  }
  return `${lines.join('\n')}\n`;
}
