import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fundkit, TimeoutError } from '../src/index.js';

/** A real server (no msw): the body is read inside the attempt's timeout, so a stall after the headers is a timeout too. */
let server: Server;
let baseUrl: string;
let requests = 0;
let stallFirst = 0;

beforeAll(async () => {
  server = createServer((_req, res) => {
    requests++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"object":"list","data":[],');
    // the first `stallFirst` answers never finish their body
    if (requests <= stallFirst) return;
    res.end('"next_cursor":null}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

// long enough for an answer that does finish to finish on loaded cores
const client = (maxRetries: number) => new Fundkit({ apiKey: 'sk_test_abc', baseUrl, timeoutMs: 1000, maxRetries });

describe('a body that stalls after the headers', () => {
  it('times out the attempt and retries it', async () => {
    requests = 0;
    stallFirst = 1;
    await expect(client(1).assets.list()).resolves.toMatchObject({ object: 'list', data: [] });
    expect(requests).toBe(2);
  });

  it('throws TimeoutError when no attempt finishes its body', async () => {
    requests = 0;
    stallFirst = 2;
    await expect(client(1).assets.list()).rejects.toBeInstanceOf(TimeoutError);
    expect(requests).toBe(2);
  });
});
