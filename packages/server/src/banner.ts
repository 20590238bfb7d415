import { join } from 'node:path';
import { Fundkit } from '@fundkit/sdk';
import { isWildcardHost } from './config.js';
import type { FundkitServer } from './index.js';
import { Networks } from '@stellar/stellar-sdk';
import { readSandboxKeys, type SandboxKeys } from './sandbox-keys.js';
import { adoptSandboxApplication, ensureDevAccount } from './dev-account.js';

/** Where the example shop (examples/node-backend, README step 5) receives webhooks. */
export const SHOP_WEBHOOK_URL = 'http://localhost:3000/webhooks/fundkit';

export interface BannerInfo {
  url: string;
  /** the address listened on (HOST; 127.0.0.1 by default on the sandbox) */
  host?: string;
  keys: SandboxKeys | null;
  demo: { id: string; url: string } | null;
  /** the sandbox's development dashboard account */
  dashboard?: { email: string; password: string } | null;
}

/** Sandbox start-up: a fresh 25 USDC intent to pay, so the first page opened shows a real checkout. */
export async function prepareSandbox(server: FundkitServer, localUrl: string, host = '127.0.0.1'): Promise<BannerInfo> {
  const local = host === '127.0.0.1' || host === '::1' || host === 'localhost' || isWildcardHost(host);
  // localhost is what the README and a browser use; an address of one interface is named as it is
  const url = local ? `http://localhost:${new URL(localUrl).port}` : localUrl;
  const keys = readSandboxKeys(join(server.config.dataDir, 'sandbox-keys.json'));
  const dashboard = await ensureDevAccount(server.services.accounts, server.config.dataDir).catch((error: unknown) => {
    server.logger.warn({ err: error }, 'could not create the development dashboard account');
    return null;
  });
  // best effort like the rest: a database that drops here must not end a server that already listens
  if (dashboard && keys) await adoptSandboxApplication(server.services, dashboard, keys).catch((error: unknown) => {
    server.logger.warn({ err: error }, 'could not give the sandbox application to the development account; the next start tries again');
  });
  if (!keys) return { url, host, keys, demo: null, dashboard };
  const fk = new Fundkit({ apiKey: keys.secretKey, baseUrl: localUrl, maxRetries: 0 });
  try {
    const intent = await fk.fundingIntents.create({ amount: '25.00', asset: 'USDC', reference: `demo_${Date.now()}` });
    return { url, host, keys, dashboard, demo: { id: intent.id, url: intent.hosted_funding_url } };
  } catch (error) {
    server.logger.warn({ err: error }, 'could not create the demo intent');
    return { url, host, keys, demo: null, dashboard };
  }
}

/** Who can reach the sandbox: this machine only unless HOST opened it. */
function listeningNote(host: string): string {
  if (host === '127.0.0.1' || host === '::1' || host === 'localhost') return `Listening on ${host} only: this machine (HOST=0.0.0.0 opens it to your network)`;
  const where = isWildcardHost(host) ? 'every interface' : host;
  return `Listening on ${where} (HOST): other machines can reach this sandbox; the docs pre-fill the secret key only on this machine`;
}

/** What `pnpm start` prints: where everything is and the keys to use, short enough to read. */
export function formatBanner({ url, host, keys, demo, dashboard }: BannerInfo): string {
  const rows: [string, string][] = [
    ['API', `${url}/v1`],
    ['Docs', `${url}/docs`],
    ['Contract', `${url}/openapi.yaml`],
  ];
  if (demo) rows.push(['Demo checkout', demo.url]);
  rows.push(['Dashboard', `${url}/dashboard`]);
  if (dashboard) rows.push(['Dashboard login', `${dashboard.email} / ${dashboard.password}`]);
  // what a wallet or Stellar Lab needs to pay from its own keys ("Pay from any wallet" in the README)
  rows.push(
    ['Horizon', `${url}/sandbox/horizon`],
    ['Passphrase', Networks.STANDALONE],
    ['Friendbot', `${url}/sandbox/friendbot?addr=G…  (&asset=USDC once it trusts USDC)`],
  );
  if (keys) {
    rows.push(['Secret key', keys.secretKey]);
    if (keys.publishableKey) rows.push(['Publishable key', keys.publishableKey]);
    rows.push(['Keys saved in', keys.path]);
  }
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = ['', '  Fundkit reference server — sandbox (an embedded Stellar ledger; no network, no real money)', ''];
  for (const [label, value] of rows) lines.push(`  ${label.padEnd(width)}  ${value}`);
  if (host) lines.push('', `  ${listeningNote(host)}`);
  if (demo) {
    lines.push('', '  Pay the demo intent (the page updates live):', `    pnpm fundkit pay ${demo.id} --amount 25`);
  }
  // the example shop's port and webhook path (README step 5): listen then shows its deliveries
  lines.push(`  Watch the shop's webhooks: pnpm fundkit listen --forward-to ${SHOP_WEBHOOK_URL}`, '');
  return lines.join('\n') + '\n';
}

const NETWORK_TITLES: Record<'testnet' | 'pubnet' | 'custom', string> = {
  testnet: 'testnet (the Stellar test network; test money, no real value)',
  pubnet: 'pubnet (the Stellar public network; real money, live keys)',
  custom: 'a custom Stellar network',
};

export interface NetworkBannerInfo {
  url: string;
  network: 'testnet' | 'pubnet' | 'custom';
  passphrase: string;
  /** what the server reaches the network through */
  via: string;
  /** deposit accounts ready per asset, of `poolSize` each; null when the server runs no pool */
  ready: Record<string, number> | null;
  poolSize: number;
}

/** What the testnet, pubnet or custom banner shows: the network, and the pool its treasury fills. */
export async function prepareNetworkBanner(server: FundkitServer, localUrl: string): Promise<NetworkBannerInfo> {
  const network = server.config.network!;
  const pool = server.services.pipeline.pipeline.pool;
  const ready = pool ? Object.fromEntries(await Promise.all(['USDC', 'EURC', 'XLM'].map(async (asset) => [asset, await pool.ready(asset)] as const))) : null;
  return {
    url: `http://localhost:${new URL(localUrl).port}`,
    network: server.config.stellar as NetworkBannerInfo['network'],
    passphrase: network.passphrase,
    via: network.api === 'rpc' ? `Stellar RPC ${network.rpcUrl}` : `Horizon ${network.horizonUrl}`,
    ready,
    poolSize: server.config.depositPoolSize,
  };
}

/**
 * The banner off the sandbox: where everything is, the treasury's state, and how to get a first
 * key (there are no saved sandbox keys to hand out: a person signs up and makes one).
 */
export function formatNetworkBanner(info: NetworkBannerInfo): string {
  const { url } = info;
  const empty = info.ready !== null && Object.values(info.ready).every((n) => n === 0);
  const pool = info.ready === null ? 'not run by this server' : Object.entries(info.ready).map(([asset, n]) => `${n} ${asset}`).join(', ') + ` ready of ${info.poolSize} each`;
  const rows: [string, string][] = [
    ['API', `${url}/v1`],
    ['Docs', `${url}/docs`],
    ['Dashboard', `${url}/dashboard`],
    ['Network', `${info.network}, through ${info.via}`],
    ['Passphrase', info.passphrase],
    ['Deposit pool', pool],
    ['Treasury', empty
      ? `nothing ready yet: pnpm fundkit treasury says what it lacks${info.network === 'pubnet' ? ' and how much XLM to send' : '; pnpm fundkit treasury --fund funds it'}`
      : 'pnpm fundkit treasury shows its balances'],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = ['', `  Fundkit reference server — ${NETWORK_TITLES[info.network]}`, ''];
  for (const [label, value] of rows) lines.push(`  ${label.padEnd(width)}  ${value}`);
  lines.push(
    '',
    '  Your first key:',
    `    1. Sign up at ${url}/dashboard/#/sign-up`,
    '    2. Open the verification link this server logs ("verification link", its dashboard_url)',
    '    3. Sign in, create an application with its settlement address (a G… account that trusts the asset),',
    `       then a ${info.network === 'pubnet' ? 'live' : 'test'} secret key on its page, and: export FUNDKIT_API_KEY=sk_…`,
    '',
  );
  return lines.join('\n') + '\n';
}

/**
 * The banner `fundkit-server` prints once it listens. It reads the database (the development
 * account, the demo intent, the pool) after the server already answers: a database that drops
 * then (a restart of PostgreSQL, a partition) leaves a running server without its banner, never
 * a server that exits, as it did when this step's error ended start-up.
 */
export async function startBanner(server: FundkitServer, localUrl: string, host?: string): Promise<string> {
  try {
    return server.config.stellar === 'sandbox'
      ? formatBanner(await prepareSandbox(server, localUrl, host))
      : formatNetworkBanner(await prepareNetworkBanner(server, localUrl));
  } catch (error) {
    server.logger.error({ err: error }, 'the start banner could not be prepared; the server keeps running');
    const why = error instanceof Error ? error.message : String(error);
    return `\n  Fundkit reference server listening at ${localUrl}\n  (its banner could not be prepared: ${why}; /readyz says what is ready)\n\n`;
  }
}
