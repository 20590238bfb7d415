/**
 * A server in sandbox mode with its sandbox network in a thread of its own (the default): its own
 * SQLite file beside the server's, reached over HTTP, its Horizon, RPC and friendbot forwarded at
 * the API's /sandbox/* paths, one chain a file; where it runs is FUNDKIT_SANDBOX_NETWORK's. On
 * either engine: on PostgreSQL the file is under the data directory.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { createServer } from '../../src/index.js';
import { startStandaloneSandbox, type StandaloneSandbox } from '@fundkit/sandbox';
import { value } from '../helpers/raw-sql.js';
import { OPERATOR_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { createIntent, FAST_ENV, pay, waitForIntent } from '../pipeline/helpers.js';

const silent = pino({ level: 'silent' });
const rpc = async (url: string, method: string) => (await (await fetch(url, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method }),
})).json()) as { result: Record<string, unknown> };

describe('the sandbox network in its own thread', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-thread-'));
  const env = { ...FAST_ENV, FUNDKIT_SANDBOX_NETWORK: 'thread', FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATA_DIR: dir, FUNDKIT_MASTER_KEY: 'cd'.repeat(32) };
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer({ env }); }, 60_000);
  afterAll(() => t?.close());

  it('keeps its chain in its own file beside the server\'s, not in the server\'s database', async () => {
    expect(existsSync(join(dir, 'fundkit.sandbox.db'))).toBe(true);
    const stellar = t.server.services.pipeline.pipeline.stellar!;
    expect(stellar.sandbox!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // migration 036 dropped the tables the in-process sandbox kept its chain in
    await expect(value(t.server.sql, 'SELECT COUNT(*) FROM sbx_ledgers')).rejects.toThrow(/sbx_ledgers/);
  });

  it('is reached over HTTP: a test payment goes through its faucet and Stellar RPC, and is CREDITED', async () => {
    const intent = await createIntent(t, { amount: '7' });
    const paid = await pay(t, intent.id, '7');
    expect(paid.ledger).toBeGreaterThan(0);
    await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED', 15_000);
    // the server's requests to its network are counted, as on testnet
    const metrics = await (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${OPERATOR_KEY}` } })).text();
    expect(metrics).toMatch(/fundkit_network_requests_total\{method="sendTransaction"[^}]*\} [1-9]/);
  });

  it('answers at the API\'s /sandbox/* paths, with Horizon\'s links naming the API, not the thread', async () => {
    const root = await (await fetch(`${t.url}/sandbox/horizon/`)).json() as { _links: { self: { href: string } }; network_passphrase: string };
    expect(root.network_passphrase).toBe('Standalone Network ; February 2017');
    const wallet = Keypair.random();
    const granted = await fetch(`${t.url}/sandbox/friendbot?addr=${wallet.publicKey()}`);
    expect(granted.status).toBe(200);
    const grant = await granted.json() as { _links: { transaction: { href: string } } };
    expect(grant._links.transaction.href).toMatch(new RegExp(`^${t.url}/sandbox/horizon/transactions/[0-9a-f]{64}$`));
    const account = await (await fetch(`${t.url}/sandbox/horizon/accounts/${wallet.publicKey()}`)).json() as { balances: Array<{ asset_type: string; balance: string }> };
    expect(account.balances.find((b) => b.asset_type === 'native')!.balance).toBe('10000.0000000');
    const network = await rpc(`${t.url}/sandbox/rpc`, 'getNetwork');
    expect(network.result).toMatchObject({ passphrase: 'Standalone Network ; February 2017' });
    expect(String(network.result.friendbotUrl)).toMatch(/\/sandbox\/friendbot$/);
    expect((await rpc(`${t.url}/sandbox/rpc`, 'getHealth')).result.status).toBe('healthy');
  });

  it('refuses a second server starting its own sandbox on the same file, and says how servers share one', async () => {
    await expect(createServer({ env, logger: silent })).rejects.toThrow(/in use by another sandbox.*FUNDKIT_SANDBOX_NETWORK/s);
  });

  it('has a faucet for the server only, with Horizon\'s problem for a bad field', async () => {
    const faucet = `${t.server.services.pipeline.pipeline.stellar!.sandbox!.url}/sandbox/faucet`;
    const bad = await fetch(faucet, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ addr: 'GNOPE', asset: 'USDC' }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ extras: { invalid_field: 'addr' } });
    // not forwarded by the API: it writes what no transaction could
    expect((await fetch(`${t.url}/sandbox/faucet`, { method: 'POST' })).status).toBe(404);
  });
});

/** Every request this server made to its network so far, whatever the method. */
async function networkRequests(t: TestServer): Promise<number> {
  const metrics = await (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${OPERATOR_KEY}` } })).text();
  return [...metrics.matchAll(/^fundkit_network_requests_total\{[^}]*\} (\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
}

describe('a server on a `fundkit sandbox` at a URL (FUNDKIT_SANDBOX_NETWORK=<url>)', () => {
  let net: StandaloneSandbox;
  let t: TestServer;
  beforeAll(async () => {
    net = await startStandaloneSandbox({ dbPath: ':memory:', port: 0 });
    // no idle reads: between ledgers the follower only reads when the sandbox says one closed
    t = await startTestServer({ env: { ...FAST_ENV, FUNDKIT_BACKFILL_INTERVAL_MS: '600000', FUNDKIT_SANDBOX_NETWORK: net.url } });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await net?.close();
  });

  it('follows its ledger closes on its Horizon\'s stream: no polling at rest, and a payment is read as its ledger closes', async () => {
    const intent = await createIntent(t, { amount: '3' });
    await new Promise((r) => setTimeout(r, 300));
    const before = await networkRequests(t);
    await new Promise((r) => setTimeout(r, 2_000));
    // polling the tip every 500 ms would have made four requests or more by now
    expect(await networkRequests(t) - before).toBeLessThanOrEqual(1);
    await pay(t, intent.id, '3');
    await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED', 15_000);
  });
});

describe('where the sandbox runs (FUNDKIT_SANDBOX_NETWORK)', () => {
  it('refuses in-process, which is gone, saying what to set instead, before it touches the database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fundkit-in-process-'));
    const refused = createServer({ env: { FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATA_DIR: dir, FUNDKIT_SANDBOX_NETWORK: 'in-process' }, logger: silent });
    await expect(refused).rejects.toThrow(ConfigError);
    await expect(refused).rejects.toThrow(/FUNDKIT_SANDBOX_NETWORK=in-process is gone.*Unset FUNDKIT_SANDBOX_NETWORK.*thread.*URL of a `pnpm fundkit sandbox`/s);
    expect(existsSync(join(dir, 'fundkit.db'))).toBe(false);
  });

  it('refuses a value that is none of thread or a URL, and a URL where no sandbox answers', async () => {
    await expect(createServer({ env: { FUNDKIT_DB: ':memory:', FUNDKIT_SANDBOX_NETWORK: 'elsewhere' }, logger: silent }))
      .rejects.toThrow(new ConfigError('FUNDKIT_SANDBOX_NETWORK must be thread or the http(s) URL of a `fundkit sandbox`, got "elsewhere"'));
    await expect(createServer({ env: { FUNDKIT_DB: ':memory:', FUNDKIT_SANDBOX_NETWORK: 'http://127.0.0.1:9' }, logger: silent }))
      .rejects.toThrow(/is not a reachable `fundkit sandbox`.*pnpm fundkit sandbox/);
  });
});
