/**
 * A round-robin HTTP proxy in front of several server processes, as a load balancer would be:
 * each request goes to the next backend; a backend that refuses the connection (stopped,
 * restarting) is skipped, since nothing was sent to it. A backend that dies with the request
 * sent gets a 502 from the proxy, marked `x-proxy-upstream-died`: those are the only 5xx a
 * killed process may cause (its own open connections).
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Proxy {
  url: string;
  /** every answer given: the backend's status, or the proxy's own 502 when the backend died mid-request */
  answers: Array<{ status: number; upstreamDied: boolean; request: string; body?: string }>;
  close(): Promise<void>;
}

export async function startProxy(backends: () => string[]): Promise<Proxy> {
  let next = 0;
  const proxy: Proxy = { url: '', answers: [], close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const targets = backends();
      const attempt = (tried: number): void => {
        if (tried >= targets.length) {
          res.writeHead(503, { 'content-type': 'application/json', 'x-proxy-no-backend': '1' }).end('{"error":"no backend"}');
          return;
        }
        const target = new URL(targets[next++ % targets.length]!);
        let sent = false;
        const upstream = request({
          host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host },
        }, (answer) => {
          const seen: { status: number; upstreamDied: boolean; request: string; body?: string } = { status: answer.statusCode ?? 0, upstreamDied: false, request: `${req.method} ${req.url} → :${target.port}` };
          proxy.answers.push(seen);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          // a server error's body says what went wrong
          if (seen.status >= 500) answer.on('data', (chunk: Buffer) => { seen.body = (seen.body ?? '') + chunk.toString(); });
          answer.pipe(res);
          answer.on('error', () => res.destroy());
        });
        // a kept-alive socket is connected already (and gets no 'connect'): the request goes out at once
        upstream.on('socket', (socket) => {
          if (socket.connecting) socket.once('connect', () => { sent = true; });
          else sent = true;
        });
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          if (!sent && error.code === 'ECONNREFUSED') return attempt(tried + 1);
          if (res.headersSent) return res.destroy();
          proxy.answers.push({ status: 502, upstreamDied: true, request: `${req.method} ${req.url} → :${target.port}` });
          res.writeHead(502, { 'content-type': 'application/json', 'x-proxy-upstream-died': target.port }).end('{"error":"upstream died"}');
        });
        upstream.end(body);
      };
      attempt(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return proxy;
}
