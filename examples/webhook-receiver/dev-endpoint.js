// Development convenience, not part of a receiver: where the signing secret comes from.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const DESCRIPTION = 'example-webhook-receiver';

/**
 * FUNDKIT_WEBHOOK_SECRET if set (e.g. printed by `fundkit listen`). Otherwise this registers `url`
 * as an endpoint for every event with the sandbox key `pnpm start` saved, and uses its secret;
 * endpoints it registered on earlier runs are deleted first, their secrets are gone.
 */
export async function webhookSecret(url) {
  if (process.env.FUNDKIT_WEBHOOK_SECRET) return process.env.FUNDKIT_WEBHOOK_SECRET;
  const apiBase = (process.env.FUNDKIT_API_BASE ?? 'http://localhost:4010').replace(/\/+$/, '');
  const key = process.env.FUNDKIT_API_KEY ?? savedSecretKey();
  if (!key) throw new Error('set FUNDKIT_WEBHOOK_SECRET, or FUNDKIT_API_KEY, or run `pnpm start` at the repository root first');
  const call = async (method, path, body) => {
    const res = await fetch(apiBase + path, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(method === 'POST' ? { 'idempotency-key': `receiver_${Date.now()}` } : {}) },
      body: body && JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const existing = await call('GET', '/v1/webhooks?limit=100');
  for (const old of existing.data) if (old.description === DESCRIPTION && old.url === url) await call('DELETE', `/v1/webhooks/${old.id}`);
  const events = ['payment.pending', 'payment.processing', 'payment.completed', 'payment.failed', 'payout.initiated', 'payout.completed', 'payout.failed', 'invoice.paid', 'invoice.overdue', 'refund.created', 'refund.completed', 'refund.failed', 'webhook.test'];
  const endpoint = await call('POST', '/v1/webhooks', { url, events, description: DESCRIPTION });
  console.log(`Registered ${endpoint.id} → ${url} (secret ${endpoint.secret})`);
  return endpoint.secret;
}

function savedSecretKey() {
  for (let dir = resolve(process.cwd()); ; dir = dirname(dir)) {
    const file = join(dir, '.fundkit', 'sandbox-keys.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')).applications[0]?.secret_keys?.[0];
    if (dirname(dir) === dir) return undefined;
  }
}
