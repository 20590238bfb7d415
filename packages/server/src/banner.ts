import { join } from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { Fundkit } from '@fundkit/sdk';
import { isWildcardHost } from './config.js';
import type { FundkitServer } from './index.js';
import { SANDBOX_PASSPHRASE } from './stellar/index.js';
import { readSandboxKeys, type SandboxKeys } from './sandbox-keys.js';
import { ensureDevAccount } from './dev-account.js';

export interface BannerInfo {
  url: string;
  /** the address listened on (HOST; 127.0.0.1 by default on the sandbox) */
  host?: string;
  keys: SandboxKeys | null;
  demo: { id: string; url: string } | null;
  /** the sandbox's development dashboard account */
  dashboard?: { email: string; password: string } | null;
}

/**
 * A sandbox application saved by an older version has no settlement address, and an intent needs a
 * destination: give it a fresh sandbox account so the README's first curl works as printed. The
 * sandbox ledger creates the account when it is first paid.
 */
async function ensureSettlementAddress(server: FundkitServer, keys: SandboxKeys): Promise<void> {
  const app = (await server.services.keys.authenticate(keys.secretKey))?.application;
  if (app && app.account_id === null && !app.settlement_address) await server.services.applications.ensureUnowned(app.name, Keypair.random().publicKey());
}

/** Sandbox start-up: a fresh 25 USDC intent to pay, so the first page opened shows a real checkout. */
export async function prepareSandbox(server: FundkitServer, localUrl: string, host = '127.0.0.1'): Promise<BannerInfo> {
  const local = host === '127.0.0.1' || host === '::1' || host === 'localhost' || isWildcardHost(host);
  // localhost is what the README and a browser use; an address of one interface is named as it is
  const url = local ? `http://localhost:${new URL(localUrl).port}` : localUrl;
  const keys = readSandboxKeys(join(server.config.dataDir, 'sandbox-keys.json'));
  if (keys) await ensureSettlementAddress(server, keys);
  const dashboard = await ensureDevAccount(server.services.accounts, server.config.dataDir).catch((error: unknown) => {
    server.logger.warn({ err: error }, 'could not create the development dashboard account');
    return null;
  });
  if (!keys) return { url, host, keys, demo: null, dashboard };
  const fk = new Fundkit({ apiKey: keys.secretKey, baseUrl: localUrl, maxRetries: 0 });
  try {
    const intent = await fk.fundingIntents.create({ amount: '25.00', asset: 'USDC', reference: `demo_${Date.now()}` });
    return { url, host, keys, dashboard, demo: { id: intent.id, url: intent.hosted_funding_url ?? `${url}/checkout/${intent.id}` } };
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
    ['Passphrase', SANDBOX_PASSPHRASE],
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
  lines.push('  Watch webhooks: pnpm fundkit listen --forward-to http://localhost:3000/webhooks', '');
  return lines.join('\n') + '\n';
}
