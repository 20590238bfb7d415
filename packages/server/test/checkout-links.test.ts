import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, run } from './helpers/raw-sql.js';
import { KEYS, startTestServer, type TestServer } from './helpers/server.js';

let t: TestServer;
let n = 0;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function createIntent() {
  const res = await t.request('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: { amount: '25', asset: 'USDC' } });
  expect(res.status).toBe(201);
  return res.body as { id: string; hosted_funding_url: string; deposit_account: { address: string } };
}

/** The checkout session a hosted page was served with (its token's subject). */
async function pageSession(url: string): Promise<string> {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const token = /"sessionToken":"([^"]+)"/.exec(await page.text())![1]!;
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;
}

describe('hosted checkout links', () => {
  it('carry a secret of at least 128 random bits of their own, shown on every read and by the session', async () => {
    const a = await createIntent();
    const b = await createIntent();
    const link = new URL(a.hosted_funding_url);
    expect(link.pathname).toBe(`/checkout/${a.id}`);
    const secret = link.searchParams.get('k')!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/); // 24 random bytes, base64url
    expect(new URL(b.hosted_funding_url).searchParams.get('k')).not.toBe(secret);
    const read = await t.request('GET', `/v1/funding-intents/${a.id}`, { key: KEYS.alphaSecretTest });
    expect(read.body.hosted_funding_url).toBe(a.hosted_funding_url);
    const session = await t.request('POST', '/v1/checkout_sessions', { key: KEYS.alphaSecretTest, body: { funding_intent_id: a.id }, headers: { 'idempotency-key': `links_test_${n++}` } });
    expect(session.body.url).toBe(a.hosted_funding_url);
    // never stored in clear
    const [row] = await rows(t.server.sql, 'SELECT checkout_secret FROM funding_intents WHERE id = ?', a.id);
    expect(row!.checkout_secret).toBeTruthy();
    expect(JSON.stringify(row)).not.toContain(secret);
  });

  it('the bare intent id, a wrong secret and an unknown intent open nothing and show nothing', async () => {
    const intent = await createIntent();
    const wrong = new URL(intent.hosted_funding_url);
    wrong.searchParams.set('k', 'A'.repeat(32));
    for (const url of [`${t.url}/checkout/${intent.id}`, `${t.url}/pay/${intent.id}`, wrong.href, `${t.url}/checkout/fi_01M820E349QN12DZTFTS8XZZVF?k=x`]) {
      const page = await fetch(url);
      expect(page.status).toBe(404);
      const html = await page.text();
      expect(html).toContain('This payment link is incomplete');
      expect(html).not.toContain('FundkitCheckout.mount');
      expect(html).not.toContain(intent.deposit_account.address);
    }
    const [count] = await rows(t.server.sql, 'SELECT COUNT(*) AS n FROM checkout_sessions WHERE funding_intent_id = ?', intent.id);
    expect(Number(count!.n)).toBe(0);
  });

  it('every load of one link reuses the intent\'s one checkout session', async () => {
    const intent = await createIntent();
    const first = await pageSession(intent.hosted_funding_url);
    const second = await pageSession(intent.hosted_funding_url);
    const third = await pageSession(intent.hosted_funding_url.replace('/checkout/', '/pay/'));
    expect(second).toBe(first);
    expect(third).toBe(first);
    const [count] = await rows(t.server.sql, 'SELECT COUNT(*) AS n FROM checkout_sessions WHERE funding_intent_id = ?', intent.id);
    expect(Number(count!.n)).toBe(1);
  });

  it('a burst of page loads from one client is answered 429 with Retry-After (run last: it spends this client\'s pages)', async () => {
    const intent = await createIntent();
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 80; i++) {
      const page = await fetch(`${t.url}/checkout/${intent.id}`);
      statuses.push(page.status);
      if (page.status === 429) retryAfter = page.headers.get('retry-after');
      await page.arrayBuffer();
    }
    expect(statuses).toContain(429);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    // the widget's script is a static file: not counted against the pages
    expect((await fetch(`${t.url}/checkout/fundkit-checkout.js`)).status).not.toBe(429);
  });
});

describe('an intent made before hosted links had secrets (migration 030)', () => {
  it('gets a secret at the next start: its hosted_funding_url opens again, the bare id still does not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fundkit-links-'));
    // one database and one master key across both starts
    const masterKey = 'ab'.repeat(32);
    const env = process.env.FUNDKIT_TEST_ENGINE === 'postgres'
      ? { FUNDKIT_DATABASE_URL: await (await import('./helpers/postgres.js')).freshPostgresDatabase('links'), FUNDKIT_DATA_DIR: dir, FUNDKIT_MASTER_KEY: masterKey }
      : { FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATA_DIR: dir, FUNDKIT_MASTER_KEY: masterKey };
    const first = await startTestServer({ env });
    const made = await first.request<{ id: string }>('POST', '/v1/funding-intents', { key: KEYS.alphaSecretTest, body: { amount: '25', asset: 'USDC' } });
    expect(made.status).toBe(201);
    // as the row of an older version holds it
    expect(await run(first.server.sql, 'UPDATE funding_intents SET checkout_secret = NULL WHERE id = ?', made.body.id)).toBe(1);
    await first.close();

    const second = await startTestServer({ env });
    try {
      const read = await second.request<{ hosted_funding_url: string }>('GET', `/v1/funding-intents/${made.body.id}`, { key: KEYS.alphaSecretTest });
      const link = new URL(read.body.hosted_funding_url);
      expect(link.searchParams.get('k')).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect((await fetch(link)).status).toBe(200);
      expect((await fetch(`${second.url}/checkout/${made.body.id}`)).status).toBe(404);
    } finally {
      await second.close();
    }
  });
});
