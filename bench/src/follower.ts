/**
 * What observing a network costs (issue 27): requests the server makes to the Stellar network per
 * ledger, at rest, with 10 and with 10,000 open intents (each a watched deposit account). Two
 * built server processes: one serves a sandbox network at 1 s ledgers (its Horizon, RPC and
 * friendbot, used over HTTP only), the other runs on FUNDKIT_STELLAR=custom against it, over
 * Stellar RPC and over Horizon. Requests are the server's own count
 * (`fundkit_network_requests_total`, every method: the follower, submissions, account reads),
 * over 20 ledgers with nothing being paid. Before the follower, each deposit account had its own
 * payments stream and each payment one more read: requests grew with the open intents.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Horizon, Keypair, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import Database from 'better-sqlite3';
import { freePort, ROOT, startChild, type Child } from './lib.js';

const KEY = 'sk_test_benchFollowerKey000000000001';
const TOKEN = 'bench-follower-metrics';
const PASSPHRASE = 'Standalone Network ; February 2017';
const ISSUERS = 'USDC:GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5,EURC:GB3Q6QDZYTHWT7E5PVS3W7FUT5GVAFC5KSZFFLPU25GO7VTC3NM2ZTVO';
const SETTLEMENT = 'GDVEU3DD4KOFECV66VIHWEZOYX4ZKR3WV27L464SIIPOU2IUI3JCZA57';
const LEDGERS = 20;
const SCALE = Math.min(1, Number(process.env.BENCH_NETWORK_SCALE ?? 1));
export const OPEN = [10, Math.max(100, Math.round(10_000 * SCALE))];
const MUXED_INTENTS = 1_000;

const log = (line: string) => process.stdout.write(`  ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function serve(dir: string, env: Record<string, string>): Promise<Child> {
  const port = await freePort();
  return startChild(process.execPath, ['packages/server/bin/fundkit-server.js'], {
    FUNDKIT_DATA_DIR: dir, FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_MASTER_KEY: 'cd'.repeat(32), LOG_LEVEL: 'warn', PORT: String(port),
    FUNDKIT_RATE_LIMIT: '1000000', FUNDKIT_RATE_LIMIT_BURST: '1000000', FUNDKIT_METRICS_TOKEN: TOKEN,
    // the muxed intents come on top of 10,000 open account intents, the default cap
    FUNDKIT_MAX_OPEN_INTENTS: '100000', ...env,
  }, port, '/healthz');
}

/**
 * Funds the treasury with `xlm` more: a friendbot tops up only an account under 10,000 XLM in
 * total, and a treasury sponsoring thousands of accounts holds more than that in locked reserves,
 * so fresh friendbot accounts are merged into it (10,000 XLM each).
 */
async function fundTreasury(network: string, treasury: string, xlm: number): Promise<void> {
  const horizon = new Horizon.Server(`${network}/sandbox/horizon`, { allowHttp: true });
  // the account itself first: a merge needs its destination to exist
  const created = await fetch(`${network}/sandbox/friendbot?addr=${treasury}`);
  if (!created.ok) throw new Error(`friendbot: ${created.status} ${await created.text()}`);
  for (let given = 10_000; given < xlm; given += 9_999) {
    const donor = Keypair.random();
    const made = await fetch(`${network}/sandbox/friendbot?addr=${donor.publicKey()}`);
    if (!made.ok) throw new Error(`friendbot: ${made.status} ${await made.text()}`);
    const tx = new TransactionBuilder(await horizon.loadAccount(donor.publicKey()), { fee: '100', networkPassphrase: PASSPHRASE })
      .addOperation(Operation.accountMerge({ destination: treasury })).setTimeout(60).build();
    tx.sign(donor);
    await horizon.submitTransaction(tx);
  }
}

async function requests(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  return [...text.matchAll(/^fundkit_network_requests_total\{method="[^"]+"\} (\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
}

async function tip(network: string): Promise<number> {
  return Number((await (await fetch(`${network}/sandbox/horizon/`)).json() as { history_latest_ledger: number }).history_latest_ledger);
}

/** Requests per ledger over LEDGERS ledgers with nothing happening. */
async function atRest(server: string, network: string): Promise<number> {
  const [r0, l0] = [await requests(server), await tip(network)];
  await sleep(LEDGERS * 1000);
  const [r1, l1] = [await requests(server), await tip(network)];
  return (r1 - r0) / (l1 - l0);
}

async function openIntents(server: string, count: number, depositType: 'account' | 'muxed' = 'account'): Promise<void> {
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  for (let done = 0; done < count;) {
    const batch = Math.min(100, count - done);
    await Promise.all(Array.from({ length: batch }, async () => {
      const res = await fetch(`${server}/v1/funding-intents`, { method: 'POST', headers, body: JSON.stringify({ amount: '1', asset: 'USDC', deposit_type: depositType }) });
      if (res.status !== 201) throw new Error(`create → ${res.status} ${await res.text()}`);
    }));
    done += batch;
  }
}

/** Until every deposit account of the open intents is on the network (their watch begins). */
async function provisioned(db: Database.Database, count: number): Promise<void> {
  const until = Date.now() + 10 * 60_000;
  for (;;) {
    const waiting = db.prepare("SELECT COUNT(*) FROM deposit_accounts WHERE status = 'PROVISIONING'").pluck().get() as number;
    if (waiting === 0) return;
    if (Date.now() > until) throw new Error(`${waiting} of ${count} deposit accounts still provisioning`);
    await sleep(1000);
  }
}

export interface FollowerFigure { api: 'rpc' | 'horizon'; open: number; perLedger: number }

/** XLM of the treasury's locked in the reserves it sponsors (Horizon's num_sponsoring × the base reserve). */
async function lockedXlm(network: string, treasury: string): Promise<number> {
  const account = await (await fetch(`${network}/sandbox/horizon/accounts/${treasury}`)).json() as { num_sponsoring: number };
  const ledger = await (await fetch(`${network}/sandbox/horizon/ledgers?order=desc&limit=1`)).json() as { _embedded: { records: { base_reserve_in_stroops: number }[] } };
  return account.num_sponsoring * ledger._embedded.records[0]!.base_reserve_in_stroops / 1e7;
}

/** What each deposit type locks of the treasury's XLM per open intent, and the collection accounts once. */
export interface ReserveFigure { perAccountIntent: number; perMuxedIntent: number; collectionsOnce: number; accountIntents: number; muxedIntents: number }

/**
 * On the server already holding OPEN intents of type `account`: makes the collection accounts as
 * an operator does (`fundkit treasury --collections`), then opens `count` muxed intents.
 */
async function muxedReserves(server: string, network: string, treasury: string, env: Record<string, string>, count: number) {
  const before = await lockedXlm(network, treasury);
  const cli = spawnSync(process.execPath, ['packages/server/bin/fundkit.js', 'treasury', '--fund', '--collections', '--json'], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' });
  if (cli.status !== 0) throw new Error(`fundkit treasury --collections: ${cli.status} ${cli.stderr} ${cli.stdout.slice(0, 1500)}`);
  const onboarded = await lockedXlm(network, treasury);
  await openIntents(server, count, 'muxed');
  return { collectionsOnce: onboarded - before, perMuxedIntent: (await lockedXlm(network, treasury) - onboarded) / count };
}

export async function benchFollower(): Promise<{ figures: FollowerFigure[]; reserves: ReserveFigure | null; notes: string[] }> {
  const figures: FollowerFigure[] = [];
  let reserves: ReserveFigure | null = null;
  const notes: string[] = [];
  const network = await serve(mkdtempSync(join(tmpdir(), 'fundkit-bench-net-')), { FUNDKIT_SANDBOX_LEDGER_SECONDS: '1', FUNDKIT_DEPOSIT_POOL_SIZE: '0' });
  try {
    for (const api of ['rpc', 'horizon'] as const) {
      const dir = mkdtempSync(join(tmpdir(), `fundkit-bench-follow-${api}-`));
      writeFileSync(join(dir, 'bootstrap.json'), JSON.stringify({ applications: [{ name: 'Follower', secret_keys: [KEY], settlement_address: SETTLEMENT }] }));
      const env = {
        FUNDKIT_STELLAR: 'custom', FUNDKIT_NETWORK_PASSPHRASE: PASSPHRASE, FUNDKIT_ASSETS: ISSUERS, FUNDKIT_BOOTSTRAP: join(dir, 'bootstrap.json'),
        FUNDKIT_HORIZON_URL: `${network.url}/sandbox/horizon`, FUNDKIT_FRIENDBOT_URL: `${network.url}/sandbox/friendbot`,
        FUNDKIT_STELLAR_API: api, ...(api === 'rpc' ? { FUNDKIT_RPC_URL: `${network.url}/sandbox/rpc` } : {}), FUNDKIT_DEPOSIT_POOL_SIZE: '0',
      };
      const server = await serve(dir, env);
      try {
        const db = new Database(join(dir, 'fundkit.db'), { readonly: true, fileMustExist: true });
        // the treasury the server made, funded from the network's friendbot (what fundkit treasury --fund
        // does): each deposit account holds 2 XLM of reserves, the channels 20 XLM each
        const treasury = db.prepare("SELECT public_key FROM stellar_keys WHERE role = 'treasury'").pluck().get() as string;
        await fundTreasury(network.url, treasury, 1_000 + 2.1 * OPEN.at(-1)!);
        let opened = 0;
        const locked = new Map<number, number>();
        for (const open of OPEN) {
          for (; opened < open; opened += Math.min(1_000, open - opened)) {
            await openIntents(server.url, Math.min(1_000, open - opened));
            await provisioned(db, open);
          }
          await provisioned(db, open);
          locked.set(open, await lockedXlm(network.url, treasury));
          const perLedger = await atRest(server.url, network.url);
          figures.push({ api, open, perLedger });
          log(`${api}: ${perLedger.toFixed(2)} requests a ledger at rest with ${open} open intents`);
        }
        if (api === 'rpc') {
          const [few, many] = [OPEN[0]!, OPEN.at(-1)!];
          const muxed = await muxedReserves(server.url, network.url, treasury, {
            FUNDKIT_DATA_DIR: dir, FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_MASTER_KEY: 'cd'.repeat(32), LOG_LEVEL: 'warn', ...env,
          }, MUXED_INTENTS);
          reserves = { perAccountIntent: (locked.get(many)! - locked.get(few)!) / (many - few), accountIntents: many - few, muxedIntents: MUXED_INTENTS, ...muxed };
          log(`reserves: ${reserves.perAccountIntent} XLM per account intent, ${reserves.perMuxedIntent} per muxed intent, ${reserves.collectionsOnce} once for the collection accounts`);
        }
        db.close();
      } finally {
        await server.stop();
      }
    }
  } finally {
    await network.stop();
  }
  notes.push(`follower: requests to the network a ledger at rest (every method the server counts), over ${LEDGERS} ledgers of 1 s, with ${OPEN.join(' and ')} open intents; the server on FUNDKIT_STELLAR=custom, the network a sandbox server reached over HTTP only`);
  if (reserves) notes.push(`deposits: the treasury's XLM locked in sponsored reserves (Horizon's num_sponsoring × the ledger's base reserve), on the Stellar RPC server of the follower figures: per open \`account\` intent from ${OPEN[0]} to ${OPEN.at(-1)} open intents (their deposit accounts all on chain); then \`fundkit treasury --fund --collections\` run against its database (its trustlines, then the collection accounts, once), then ${MUXED_INTENTS} \`muxed\` intents opened`);
  return { figures, reserves, notes };
}
