import { join } from 'node:path';
import { Fundkit } from '@fundkit/sdk';
import type { FundkitServer } from './index.js';
import { SANDBOX_PASSPHRASE } from './stellar/index.js';
import { readSandboxKeys, type SandboxKeys } from './sandbox-keys.js';
import { adoptSandboxApplication, ensureDevAccount } from './dev-account.js';

/** Where the example shop (examples/node-backend, README step 5) receives webhooks. */
export const SHOP_WEBHOOK_URL = 'http://localhost:3000/webhooks/fundkit';

export interface BannerInfo {
  url: string;
  keys: SandboxKeys | null;
  demo: { id: string; url: string } | null;
  /** the sandbox's development dashboard account */
  dashboard?: { email: string; password: string } | null;
}

/** Sandbox start-up: a fresh 25 USDC intent to pay, so the first page opened shows a real checkout. */
export async function prepareSandbox(server: FundkitServer, localUrl: string): Promise<BannerInfo> {
  const url = `http://localhost:${new URL(localUrl).port}`;
  const keys = readSandboxKeys(join(server.config.dataDir, 'sandbox-keys.json'));
  const dashboard = await ensureDevAccount(server.services.accounts, server.config.dataDir).catch((error: unknown) => {
    server.logger.warn({ err: error }, 'could not create the development dashboard account');
    return null;
  });
  if (dashboard && keys) await adoptSandboxApplication(server.services, dashboard, keys);
  if (!keys) return { url, keys, demo: null, dashboard };
  const fk = new Fundkit({ apiKey: keys.secretKey, baseUrl: localUrl, maxRetries: 0 });
  try {
    const intent = await fk.fundingIntents.create({ amount: '25.00', asset: 'USDC', reference: `demo_${Date.now()}` });
    return { url, keys, dashboard, demo: { id: intent.id, url: intent.hosted_funding_url ?? `${url}/checkout/${intent.id}` } };
  } catch (error) {
    server.logger.warn({ err: error }, 'could not create the demo intent');
    return { url, keys, demo: null, dashboard };
  }
}

/** What `pnpm start` prints: where everything is and the keys to use, short enough to read. */
export function formatBanner({ url, keys, demo, dashboard }: BannerInfo): string {
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
  if (demo) {
    lines.push('', '  Pay the demo intent (the page updates live):', `    pnpm fundkit pay ${demo.id} --amount 25`);
  }
  // the example shop's port and webhook path (README step 5): listen then shows its deliveries
  lines.push(`  Watch the shop's webhooks: pnpm fundkit listen --forward-to ${SHOP_WEBHOOK_URL}`, '');
  return lines.join('\n') + '\n';
}
