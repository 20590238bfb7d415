import { rows, value } from '../helpers/raw-sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopeHash } from '../../src/pipeline/tx.js';
import { OPERATOR_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { createIntent, FAST_ENV, history, key, pay, waitFor, waitForIntent } from './helpers.js';

const horizon = async (t: TestServer, path: string) => (await fetch(`${t.url}/sandbox/horizon${path}`)).json() as Promise<any>;
const poolRows = (t: TestServer) => rows<any>(t.server.sql, 'SELECT * FROM deposit_pool ORDER BY id');
const batches = (t: TestServer) => rows<any>(t.server.sql, 'SELECT * FROM deposit_batches ORDER BY created_at, id');
const treasury = (t: TestServer) => t.server.services.pipeline.pipeline.signer!.treasury.publicKey();

describe('with the pool warm (FUNDKIT_DEPOSIT_POOL_SIZE=5)', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer({ env: { ...FAST_ENV, FUNDKIT_DEPOSIT_POOL_SIZE: '5' } }); });
  afterAll(() => t.close());

  it('the server starts with the pool full, many accounts per transaction', async () => {
    const rows = await poolRows(t);
    expect(rows).toHaveLength(15);
    expect(rows.every((r) => r.activated_at && r.transaction_hash && r.environment === 'test' && r.network === 'sandbox')).toBe(true);
    const tx = await horizon(t, `/transactions/${rows[0].transaction_hash}`);
    // 5 accounts of each of USDC, EURC (5 operations) and XLM (4): 15 accounts, 70 operations, one transaction
    expect(tx).toMatchObject({ successful: true, operation_count: 70 });
    // a channel account is the transaction's source; the treasury sponsors (the operations' source)
    expect(tx.source_account).not.toBe(treasury(t));
    expect(new Set(rows.map((r) => r.transaction_hash)).size).toBe(1);
    expect(await batches(t)).toMatchObject([{ status: 'APPLIED', transaction_hash: rows[0].transaction_hash }]);
  });

  it('a create answers AWAITING_PAYMENT with a pooled account already on chain, and the pool is topped up', async () => {
    const intent = await createIntent(t);
    expect(intent.status).toBe('AWAITING_PAYMENT');
    expect(intent.deposit_account.status).toBe('ACTIVE');
    const address = intent.funding_instructions.deposit.address;
    const row = (await poolRows(t)).find((r) => r.address === address);
    expect(row).toMatchObject({ asset: 'USDC', claimed_at: expect.any(String) });
    const account = await horizon(t, `/accounts/${address}`);
    expect(account.sponsor).toBe(treasury(t));
    // the treasury co-signs: it alone signs for the account later (settlements batch 100 to a transaction)
    expect(account.signers).toEqual(expect.arrayContaining([expect.objectContaining({ key: treasury(t), weight: 1 })]));
    expect(account.balances.map((b: any) => b.asset_code ?? b.asset_type)).toEqual(expect.arrayContaining(['USDC', 'native']));
    expect(intent.protocol.transaction_hash ?? row.transaction_hash).toBe(row.transaction_hash);
    await waitFor(async () => t.server.services.pipeline.pipeline.pool!.ready('USDC'), (n) => n === 5);
    expect(await history(t, intent.id)).toEqual(['CREATED', 'AWAITING_PAYMENT']);
  });

  it('concurrent creates never share an account; those past the pool wait for theirs', async () => {
    const created = await Promise.all(Array.from({ length: 12 }, () => createIntent(t, { asset: 'EURC' })));
    expect(created.filter((i) => i.status === 'AWAITING_PAYMENT').length).toBeGreaterThanOrEqual(5);
    const settled = await Promise.all(created.map((i) => waitForIntent(t, i.id, (x) => x.status === 'AWAITING_PAYMENT')));
    const addresses = settled.map((i) => i.deposit_account.address);
    expect(new Set(addresses).size).toBe(12);
    expect(settled.map((i) => i.funding_instructions.deposit.address)).toEqual(addresses);
    // a warm account keeps the address it was answered with; one still being created had none then
    created.forEach((c, n) => expect(c.deposit_account.address).toBe(c.status === 'AWAITING_PAYMENT' ? addresses[n] : null));
    const claimed = (await poolRows(t)).filter((r) => addresses.includes(r.address));
    expect(claimed.every((r) => r.claimed_at)).toBe(true);
    for (const address of addresses) expect((await horizon(t, `/accounts/${address}`)).id).toBe(address);
  });
});

describe('with the pool empty (FUNDKIT_DEPOSIT_POOL_SIZE=0)', () => {
  let t: TestServer;
  // bursts of creates one after another: the per-key limit is not what these tests are about
  beforeAll(async () => { t = await startTestServer({ env: { ...FAST_ENV, FUNDKIT_DEPOSIT_POOL_SIZE: '0', FUNDKIT_RATE_LIMIT: '1000', FUNDKIT_RATE_LIMIT_BURST: '1000' } }); });
  afterAll(() => t.close());

  it('a create answers CREATED/PROVISIONING at once, then AWAITING_PAYMENT with its event, and can be paid to CREDITED', async () => {
    const intent = await createIntent(t);
    expect(intent.status).toBe('CREATED');
    expect(intent.deposit_account).toMatchObject({ status: 'PROVISIONING', activated_at: null });
    expect(intent.funding_instructions.deposit).toEqual({ address: null, type: 'account' });
    expect(intent.funding_instructions.payment_uri).toBeNull();
    const ready = await waitForIntent(t, intent.id, (i) => i.status === 'AWAITING_PAYMENT');
    expect(intent.deposit_account.address).toBeNull();
    expect(ready.deposit_account).toMatchObject({ status: 'ACTIVE', address: expect.stringMatching(/^G[A-Z2-7]{55}$/), activated_at: expect.any(String) });
    expect(ready.funding_instructions.deposit.address).toBe(ready.deposit_account.address);
    expect(ready.funding_instructions.payment_uri).toContain(ready.deposit_account.address);
    const events = await t.request('GET', '/v1/events?limit=100', { key });
    const pending = events.body.data.filter((e: any) => e.type === 'payment.pending' && e.data.funding_intent_id === intent.id);
    expect(pending).toHaveLength(1);
    expect(pending[0].data.status).toBe('AWAITING_PAYMENT');
    await pay(t, intent.id, '25.00');
    await waitForIntent(t, intent.id, (i) => i.status === 'CREDITED');
    expect(await history(t, intent.id)).toEqual(['CREATED', 'AWAITING_PAYMENT', 'PAYMENT_DETECTED', 'PAYMENT_CONFIRMED', 'SETTLING', 'SETTLED', 'CREDITED']);
    expect(await poolRows(t)).toEqual([]);
  });

  it('the public checkout view has no address while provisioning', async () => {
    // the pool's worker held, as a ledger close would: the instant sandbox could otherwise create
    // the account before the view is read
    const pool = t.server.services.pipeline.pipeline.pool! as unknown as { pausedUntil: number };
    pool.pausedUntil = Date.now() + 60_000;
    let intent: any;
    try {
      intent = await createIntent(t);
      const res = await t.request('POST', '/v1/checkout_sessions', { key, body: { funding_intent_id: intent.id }, headers: { 'idempotency-key': `pool_${intent.id}` } });
      const view = await t.request('GET', `/v1/public/funding-intents/${intent.id}`, { key: res.body.session_token });
      expect(view.status).toBe(200);
      expect(view.body.status).toBe('CREATED');
      expect(view.body.funding_instructions.deposit.address).toBeNull();
    } finally {
      pool.pausedUntil = 0;
      t.server.services.pipeline.pipeline.nudgeJob('deposit-pool');
    }
    const ready = await waitForIntent(t, intent.id, (i) => i.status === 'AWAITING_PAYMENT');
    expect(ready.funding_instructions.deposit.address).toMatch(/^G[A-Z2-7]{55}$/);
  });

  it('waiting intents share transactions (up to 18 accounts each: the channel, the treasury and 18 deposit keys sign)', async () => {
    const before = (await batches(t)).length;
    // the instant sandbox creates each account before the next request arrives: hold the worker, as a
    // ledger close does on a real network, so the intents wait together
    const pool = t.server.services.pipeline.pipeline.pool! as unknown as { pausedUntil: number };
    pool.pausedUntil = Date.now() + 60_000;
    const created = await Promise.all(Array.from({ length: 25 }, (_, n) => createIntent(t, { asset: n % 2 ? 'XLM' : 'USDC', amount: '3' })));
    expect(created.every((i) => i.status === 'CREATED')).toBe(true);
    // the operator sees the accounts waiting, and since when
    const queue = async () => {
      const text = await (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${OPERATOR_KEY}` } })).text();
      const line = (name: string) => Number(text.split('\n').find((l) => l.startsWith(`${name}{queue="deposit_accounts"}`))?.split(' ')[1]);
      return { depth: line('fundkit_queue_depth'), age: line('fundkit_queue_oldest_age_seconds') };
    };
    expect(await queue()).toMatchObject({ depth: 25, age: expect.any(Number) });
    pool.pausedUntil = 0;
    t.server.services.pipeline.pipeline.nudgeJob('deposit-pool');
    // what is asserted is how the accounts were batched, not how fast: two batches of 18 accounts'
    // signatures and ~100 statements on loaded cores may take longer than the helper's 5 s
    await Promise.all(created.map((i) => waitForIntent(t, i.id, (x) => x.status === 'AWAITING_PAYMENT', 20_000)));
    const used = (await batches(t)).slice(before);
    expect(used.map((b) => b.status)).toEqual(['APPLIED', 'APPLIED']);
    expect(await queue()).toEqual({ depth: 0, age: 0 });
    const sizes = await Promise.all(used.map(async (b) => Number(await value(t.server.sql, 'SELECT COUNT(*) FROM deposit_accounts WHERE provision_batch_id = ?', b.id))));
    expect(sizes).toEqual([18, 7]);
    const tx = await horizon(t, `/transactions/${used[0].transaction_hash}`);
    expect(tx.operation_count).toBeGreaterThanOrEqual(18 * 3);
    expect(tx.signatures).toHaveLength(20);
  });

  it('while the event loop is saturated (measured, not stubbed), new deposit batches wait: one a second at most; they resume once it is not', async () => {
    // real load on this process's event loop (the server's too): a spin of 95 ms in every ~100,
    // as a burst of requests keeps it; the server's own measure (lib/loop-load.ts, wired in
    // pipeline/index.ts) is what the pool reads. Requests still run in the gaps, slowly.
    let spinning = false;
    const spin = () => {
      if (!spinning) return;
      const end = performance.now() + 95;
      while (performance.now() < end) { /* the load */ }
      setTimeout(spin, 5);
    };
    const gapsBetweenBatches = async (load: boolean) => {
      spinning = load;
      if (load) spin();
      try {
        const before = (await batches(t)).length;
        const created: any[] = [];
        for (let wave = 0; wave < 4; wave++) {
          created.push(...await Promise.all(Array.from({ length: 4 }, () => createIntent(t, { amount: '2' }))));
          // waves apart, as requests come: not a wait for anything
          await new Promise((r) => setTimeout(r, 400));
        }
        await Promise.all(created.map((i) => waitForIntent(t, i.id, (x) => x.status === 'AWAITING_PAYMENT', 40_000)));
        const used = (await batches(t)).slice(before);
        return used.slice(1).map((b, n) => Date.parse(b.created_at) - Date.parse(used[n]!.created_at));
      } finally {
        spinning = false;
      }
    };
    // without the load, batches follow the creates: closer than the saturated pace
    const calm = await gapsBetweenBatches(false);
    expect(Math.min(...calm)).toBeLessThan(1000);
    const busy = await gapsBetweenBatches(true);
    expect(busy.length).toBeGreaterThan(0);
    for (const gap of busy) expect(gap).toBeGreaterThanOrEqual(1000);
    // the load gone, the rest are made: every intent of the burst got its account above (waited
    // for while the loop was still busy), and creates after it get theirs. (Calm gaps measured
    // right after the load were 1.6 s once on PostgreSQL on a loaded machine: the measure's first
    // look after a quiet spell spans the load before it; not asserted in milliseconds here.)
    const after = await Promise.all(Array.from({ length: 4 }, () => createIntent(t, { amount: '2' })));
    await Promise.all(after.map((i) => waitForIntent(t, i.id, (x) => x.status === 'AWAITING_PAYMENT', 20_000)));
  }, 120_000);

  it('a crash after submission finds the stored envelope on chain: no account created twice, no key lost', async () => {
    const pool = t.server.services.pipeline.pipeline.pool! as any;
    const applied = pool.applied.bind(pool);
    let crashes = 0;
    pool.applied = (batch: unknown, hash: string) => {
      if (crashes++ === 0) throw new Error('simulated crash after submission');
      return applied(batch, hash);
    };
    try {
      const before = (await batches(t)).length;
      const intent = await createIntent(t);
      const ready = await waitForIntent(t, intent.id, (i) => i.status === 'AWAITING_PAYMENT');
      const [batch] = (await batches(t)).slice(before);
      expect((await batches(t)).slice(before)).toHaveLength(1);
      expect(batch).toMatchObject({ status: 'APPLIED', attempts: 1 });
      expect(batch.transaction_hash).toBe(envelopeHash(batch.envelope_xdr, t.server.services.pipeline.pipeline.stellar!.network.passphrase));
      const txs = await horizon(t, `/accounts/${ready.deposit_account.address}/transactions?limit=10`);
      expect(txs._embedded.records.map((r: any) => r.hash)).toEqual([batch.transaction_hash]);
      expect(crashes).toBe(2);
    } finally {
      pool.applied = applied;
    }
  });
});
