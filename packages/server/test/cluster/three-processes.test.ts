/**
 * Three server processes on one PostgreSQL database behind a round-robin proxy take a mixed load
 * (creates, payments, over- and underpayments, refunds, webhook deliveries) while one process at
 * a time is killed with SIGKILL and started again. Afterwards: every payment recorded once, one
 * credit per credited intent, every payout on chain recorded exactly once, journals balanced,
 * every event delivered at least once, every event seen by a client polling the events list, and
 * no 5xx but the proxy's 502s for requests that were open on a process when it was killed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createTcpServer, connect, type Server as TcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresSql } from '../../src/db/postgres-sql.js';
import { freePort, kill, startChild, type Child } from '../crash/child.js';
import { startStandaloneSandbox } from '@fundkit/sandbox';
import { chainAt, checkInvariants } from '../crash/invariants.js';
import { call, CRASH_KEY, refundWhatIsRefundable, settle, SETTLEMENT_ADDRESS, traffic } from '../crash/traffic.js';
import { rows, value } from '../helpers/raw-sql.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { EventPoller } from './event-poller.js';
import { startProxy, type Proxy } from './proxy.js';

const onPostgres = process.env.FUNDKIT_TEST_ENGINE === 'postgres';
const EVENTS = ['payment.pending', 'payment.processing', 'payment.completed', 'payment.failed', 'refund.created', 'refund.completed', 'refund.failed'];
const PROCESSES = 3;
const LANES = 6;

const cleanup: Array<() => Promise<unknown> | unknown> = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

/** The three share one sandbox (a `fundkit sandbox` at a URL): an instant one, and one on a 1 s clock. */
const LEDGERS: Array<{ name: string; ledgerSeconds: number }> = [
  { name: 'an instant ledger', ledgerSeconds: 0 },
  { name: '1 s ledgers', ledgerSeconds: 1 },
];

async function sharedSandbox(ledgerSeconds = 0) {
  const sandbox = await startStandaloneSandbox({ dbPath: ':memory:', port: 0, ledgerSeconds });
  cleanup.push(() => sandbox.close());
  return sandbox;
}

describe.runIf(onPostgres)('three server processes on PostgreSQL behind a round-robin proxy', () => {
  it.each(LEDGERS)('lose nothing and do nothing twice while each in turn is killed with SIGKILL and restarted, on $name', async (ledgers) => {
    const { freshPostgresDatabase } = await import('../helpers/postgres.js');
    const url = await freshPostgresDatabase('three');
    const dir = mkdtempSync(join(tmpdir(), 'fundkit-three-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const sandbox = await sharedSandbox(ledgers.ledgerSeconds);
    const env = {
      FUNDKIT_SANDBOX_NETWORK: sandbox.url,
      FUNDKIT_DATABASE_URL: url, FUNDKIT_DATA_DIR: dir, FUNDKIT_BOOTSTRAP: join(dir, 'bootstrap.json'), FUNDKIT_MASTER_KEY: 'ab'.repeat(32),
      LOG_LEVEL: 'warn', FUNDKIT_INSTANCE_TIMEOUT_MS: '1000', FUNDKIT_RATE_LIMIT: '10000', FUNDKIT_RATE_LIMIT_BURST: '10000',
      FUNDKIT_WORKER_INTERVAL_MS: '20', FUNDKIT_BACKFILL_INTERVAL_MS: '100', FUNDKIT_WORKER_BACKOFF_MS: '20', FUNDKIT_WEBHOOK_RETRY_SCHEDULE: '1s,1s,2s,5s,10s',
    };
    writeFileSync(env.FUNDKIT_BOOTSTRAP, JSON.stringify({ applications: [{ name: 'Three', secret_keys: [CRASH_KEY], settlement_address: SETTLEMENT_ADDRESS }] }));

    const ports = await Promise.all(Array.from({ length: PROCESSES }, () => freePort()));
    const up: Array<Child | null> = [];
    cleanup.push(async () => { for (const child of up) if (child) await kill(child, 'SIGKILL'); });
    // one after the other: the first migrates the database, the others find it migrated
    for (const port of ports) up.push(await startChild(env, port));
    const proxy: Proxy = await startProxy(() => ports.map((port) => `http://127.0.0.1:${port}`));
    cleanup.push(() => proxy.close());
    const receiver: Receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    const endpoint = await call(proxy, 'POST', '/v1/webhooks', { url: receiver.url, events: EVENTS });
    expect(endpoint.status).toBe(201);

    // a client polling GET /v1/events through the whole run, whichever process answers it
    const poller = new EventPoller();
    let finished = false;
    const polling = poller.follow(proxy, () => finished);

    for (let round = 0; round < PROCESSES; round++) {
      let stopped = false;
      const flow = traffic(proxy, round * 1000, LANES, () => stopped);
      await new Promise((r) => setTimeout(r, 1_500 + Math.random() * 1_500));
      // each process in turn, the pipeline's holder among them
      await kill(up[round]!, 'SIGKILL');
      up[round] = null;
      await new Promise((r) => setTimeout(r, 1_000));
      up[round] = await startChild(env, ports[round]!);
      await new Promise((r) => setTimeout(r, 500));
      stopped = true;
      await flow;
    }

    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const sql = new PostgresSql(pool);
    cleanup.push(() => sql.close());
    const why = () => up.map((child) => child?.stderr.join('').slice(-3000) ?? '').join('\n');
    await settle(sql, 30_000, why, chainAt(sandbox.url), 150_000);
    await refundWhatIsRefundable(proxy);
    await settle(sql, 30_000, why, chainAt(sandbox.url), 150_000);

    expect(await checkInvariants(sql, chainAt(sandbox.url))).toEqual([]);
    const credited = Number(await value(sql, "SELECT COUNT(*) FROM funding_intents WHERE status = 'CREDITED'"));
    const payments = Number(await value(sql, 'SELECT COUNT(*) FROM payments'));
    const refunds = Number(await value(sql, "SELECT COUNT(*) FROM refunds WHERE status = 'COMPLETED'"));
    expect(credited).toBeGreaterThan(0);
    expect(refunds).toBeGreaterThan(0);

    // every event of the subscribed types reached the receiver at least once (a delivery open on
    // a killed process is claimed again once its heartbeat is 1 s stale, then may wait its backoff;
    // the wait is generous because CI's shared cores stretch everything)
    const events = await rows<{ id: string }>(sql, `SELECT id FROM events WHERE type IN (${EVENTS.map(() => '?').join(', ')})`, ...EVENTS);
    const delivered = () => new Set(receiver.received.map((r) => (JSON.parse(r.body) as { id: string }).id));
    const deadline = Date.now() + 150_000;
    while (events.some((e) => !delivered().has(e.id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(events.filter((e) => !delivered().has(e.id))).toEqual([]);

    // the poller, which stops at the newest event it has, missed none: the list only grows at the top
    finished = true;
    await polling;
    await poller.poll(proxy);
    const all = await rows<{ id: string }>(sql, 'SELECT id FROM events');
    expect(all.filter((e) => !poller.seen.has(e.id))).toEqual([]);

    const cut = proxy.answers.filter((a) => a.upstreamDied).length;
    console.info(`three processes (${ledgers.name}): ${proxy.answers.length} requests, ${credited} intents credited, ${payments} payments, ${refunds} refunds completed, `
      + `${events.length} events delivered, ${poller.seen.size} events polled, ${cut} requests cut by a kill`);
    expect(proxy.answers.filter((a) => a.status >= 500 && !a.upstreamDied)).toEqual([]);
  }, 600_000);

  it('a process cut off from the database answers /readyz 503 within 5 s while the others stay 200, and 200 once it is back', async () => {
    const { freshPostgresDatabase } = await import('../helpers/postgres.js');
    const url = new URL(await freshPostgresDatabase('three_ready'));
    const dir = mkdtempSync(join(tmpdir(), 'fundkit-three-ready-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const sandbox = await sharedSandbox();
    const env = {
      FUNDKIT_DATABASE_URL: url.toString(), FUNDKIT_DATA_DIR: dir, FUNDKIT_MASTER_KEY: 'ab'.repeat(32), LOG_LEVEL: 'error', FUNDKIT_INSTANCE_TIMEOUT_MS: '1000',
      FUNDKIT_SANDBOX_NETWORK: sandbox.url,
    };
    // the third process reaches PostgreSQL through a link the test can cut, as a network partition would
    const link = await tcpLink(url.hostname, Number(url.port));
    cleanup.push(() => link.close());
    const ports = await Promise.all(Array.from({ length: PROCESSES }, () => freePort()));
    const children: Child[] = [];
    cleanup.push(async () => { for (const child of children) await kill(child, 'SIGKILL'); });
    for (const [i, port] of ports.entries()) {
      const viaLink = new URL(url);
      viaLink.port = String(link.port);
      children.push(await startChild(i === 2 ? { ...env, FUNDKIT_DATABASE_URL: viaLink.toString() } : env, port));
    }
    // a process that is gone says how it ended, not just "fetch failed"
    const readiness = () => Promise.all(children.map(async (c) => {
      try {
        return (await fetch(`${c.url}/readyz`)).status;
      } catch (error) {
        const ended = c.process.exitCode ?? c.process.signalCode;
        throw new Error(`${c.url}/readyz: ${(error as Error).message}${ended === null ? '' : ` (the process ended: ${ended})`}\n${c.stderr.join('').slice(-3000)}`);
      }
    }));
    // three processes starting beside the suite's heaviest files: their readiness is the
    // precondition, not the rule under test (the 5 s below is)
    await expect.poll(readiness, { timeout: 75_000 }).toEqual([200, 200, 200]);
    link.cut();
    const cutAt = Date.now();
    await expect.poll(async () => (await readiness())[2], { timeout: 5_000, interval: 100 }).toBe(503);
    expect(Date.now() - cutAt).toBeLessThan(5_000);
    expect((await readiness()).slice(0, 2)).toEqual([200, 200]);
    const body = await (await fetch(`${children[2]!.url}/readyz`)).json() as { checks: { database: { status: string } } };
    expect(body.checks.database.status).toBe('fail');
    await link.restore();
    await expect.poll(readiness, { timeout: 20_000 }).toEqual([200, 200, 200]);
  }, 180_000);
});

/** A TCP relay to PostgreSQL that can be cut (every connection dropped, new ones refused) and restored on its port. */
async function tcpLink(host: string, port: number) {
  const sockets = new Set<Socket>();
  let server: TcpServer | null = null;
  // restored on the same port after the cut: one outside the range other files' listen(0) draws from
  let listenPort = await freePort();
  const open = async () => {
    server = createTcpServer((socket) => {
      const upstream = connect(port, host);
      for (const s of [socket, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => undefined);
      }
      socket.pipe(upstream).pipe(socket);
    });
    await new Promise<void>((resolve) => server!.listen(listenPort, '127.0.0.1', resolve));
    listenPort = (server.address() as { port: number }).port;
  };
  await open();
  return {
    get port() { return listenPort; },
    cut() {
      server?.close();
      for (const s of sockets) s.destroy();
    },
    restore: open,
    close() {
      server?.close();
      for (const s of sockets) s.destroy();
    },
  };
}
