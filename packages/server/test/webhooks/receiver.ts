import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the receiver saw it: the raw body, byte for byte, and when it arrived. */
export interface Received {
  body: string;
  headers: IncomingHttpHeaders;
  receivedAt: number;
}

/** How to answer the nth request (from 0): a status and body, or 'hang' (never answer). */
export type Answer = { status: number; body?: string } | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** resolves once `count` requests have arrived */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 and an ephemeral port. */
export async function startReceiver(answer: (n: number) => Answer = () => ({ status: 200, body: 'ok' })): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const n = received.length;
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers, receivedAt: Date.now() });
      waiters.forEach((wake) => wake());
      const reply = answer(n);
      if (reply === 'hang') return;
      res.writeHead(reply.status, { 'content-type': 'text/plain' }).end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  function waitFor(count: number, timeoutMs = 10_000): Promise<Received[]> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`receiver got ${received.length} of ${count} requests in ${timeoutMs} ms`)), timeoutMs);
      const check = () => {
        if (received.length < count) return;
        clearTimeout(timer);
        resolve(received.slice(0, count));
      };
      waiters.push(check);
      check();
    });
  }

  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    waitFor,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Polls until check() returns a value (not undefined), or fails after timeoutMs. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
