/**
 * /sandbox/* on a sandbox server reachable from the network: a client not on this machine is
 * bounded in requests a second and in requests open at once (Horizon's event streams stay open),
 * answered 429 in each network API's own shape; a client on this machine is not bounded.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FAST_ENV } from '../pipeline/helpers.js';

let t: TestServer;

beforeAll(async () => {
  // behind a proxy on this machine (FUNDKIT_TRUST_PROXY=loopback), X-Forwarded-For names the client
  t = await startTestServer({ env: { ...FAST_ENV, FUNDKIT_TRUST_PROXY: 'loopback', FUNDKIT_SANDBOX_PROXY_RATE: '3', FUNDKIT_SANDBOX_PROXY_OPEN: '2' } });
});
afterAll(() => t.close());

const from = (client: string) => ({ 'x-forwarded-for': client });

/**
 * Asks until the answer is 429 (a bounded number of times): the refusal, and how many answers
 * passed (200) before it. The bucket refills while a busy machine answers, so a test never counts
 * on one request alone being refused.
 */
async function untilRefused(ask: () => Promise<Response>, tries = 30): Promise<{ refused: Response; passed: number }> {
  let passed = 0;
  for (let i = 0; i < tries; i++) {
    const answer = await ask();
    if (answer.status === 429) return { refused: answer, passed };
    if (answer.status === 200) passed++;
    await answer.arrayBuffer();
  }
  throw new Error(`no 429 in ${tries} requests`);
}

describe('/sandbox/* per client', () => {
  it('a burst past the rate is answered 429 with Retry-After: Horizon\'s problem, stellar-rpc\'s JSON-RPC error; this machine is not bounded', async () => {
    const client = from('203.0.113.7');
    // one request after another until the first refusal: the burst (twice the rate, 6) passes first
    const burst = await untilRefused(() => fetch(`${t.url}/sandbox/horizon/`, { headers: client }), 60);
    expect(burst.passed).toBeGreaterThanOrEqual(6);
    expect(Number(burst.refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await burst.refused.arrayBuffer();
    // each API's own shape (asked until it refuses again: an unbounded proxy never does)
    const { refused: horizon } = await untilRefused(() => fetch(`${t.url}/sandbox/horizon/`, { headers: client }));
    expect(await horizon.json()).toMatchObject({ type: 'https://stellar.org/horizon-errors/rate_limit_exceeded', status: 429 });
    const { refused: rpc } = await untilRefused(() => fetch(`${t.url}/sandbox/rpc`, { method: 'POST', headers: { ...client, 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth' }) }));
    expect(await rpc.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    // another client, and this machine, are not held back by it
    expect((await fetch(`${t.url}/sandbox/horizon/`, { headers: from('203.0.113.8') })).status).toBe(200);
    for (let i = 0; i < 12; i++) {
      const own = await fetch(`${t.url}/sandbox/horizon/`);
      await own.arrayBuffer();
      expect(own.status).toBe(200);
    }
  });

  it('event streams count while open: past the cap 429, and a closed stream frees its place', async () => {
    const client = from('198.51.100.9');
    const stream = (abort: AbortController) => fetch(`${t.url}/sandbox/horizon/ledgers?cursor=now`, { headers: { ...client, accept: 'text/event-stream' }, signal: abort.signal });
    const first = new AbortController();
    const second = new AbortController();
    const open = [await stream(first), await stream(second)];
    expect(open.map((r) => r.status)).toEqual([200, 200]);
    expect(open[0]!.headers.get('content-type')).toContain('text/event-stream');
    const third = await fetch(`${t.url}/sandbox/horizon/`, { headers: client });
    expect(third.status).toBe(429);
    expect((await third.json()).detail).toContain('2 requests open');
    first.abort();
    await expect.poll(async () => {
      const again = await fetch(`${t.url}/sandbox/horizon/`, { headers: client });
      await again.arrayBuffer();
      return again.status;
    }, { timeout: 10_000, interval: 400 }).toBe(200);
    second.abort();
  });

  it('a dropped connection frees every request it held, pipelined ones queued behind a stream too', async () => {
    const client = '192.0.2.44';
    const { port } = new URL(t.url);
    const socket = connect(Number(port), '127.0.0.1');
    const stream = `GET /sandbox/horizon/ledgers?cursor=now HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: ${client}\r\nAccept: text/event-stream\r\n\r\n`;
    // two streams on one connection: the second waits behind the first, which never ends
    socket.write(stream + stream);
    await once(socket, 'data');
    socket.destroy();
    // both places come back: two new streams open
    const streams = [new AbortController(), new AbortController()];
    await expect.poll(async () => {
      const opened = await Promise.all(streams.map((abort) => fetch(`${t.url}/sandbox/horizon/ledgers?cursor=now`, { headers: { ...from(client), accept: 'text/event-stream' }, signal: abort.signal })));
      const statuses = opened.map((r) => r.status);
      if (statuses.some((s) => s !== 200)) for (const r of opened) await r.body?.cancel();
      return statuses;
    }, { timeout: 10_000, interval: 500 }).toEqual([200, 200]);
    for (const abort of streams) abort.abort();
  });

  it('counts an IPv6 client by its /64: another address of the same /64 is refused with it, another /64 is not', async () => {
    // a new address of one /64 for each request: counted apart, none would ever be refused
    let next = 1;
    const fromNet = () => fetch(`${t.url}/sandbox/horizon/`, { headers: from(`2001:db8:1:2::${(next++).toString(16)}`) });
    await (await untilRefused(fromNet, 60)).refused.arrayBuffer();
    // and right after, more new addresses of it share the refusal (each alone would pass 6)
    await (await untilRefused(fromNet, 5)).refused.arrayBuffer();
    const otherNet = await fetch(`${t.url}/sandbox/horizon/`, { headers: from('2001:db8:1:3::1') });
    expect(otherNet.status).toBe(200);
    await otherNet.arrayBuffer();
  });
});
