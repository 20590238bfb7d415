/**
 * The API's /sandbox/horizon, /sandbox/rpc and /sandbox/friendbot when the sandbox runs in its
 * own thread or process: each request is forwarded unchanged (path, query, body, and the Host a
 * client used, so links in Horizon's answers name this server), and the answer streamed back
 * (Horizon's event streams too). Wallets, the checkout and the SDK keep the URLs they had.
 *
 * Stellar RPC calls pass only when they are stellar-rpc's own methods: the sandbox's test
 * controls (sandbox_closeLedger, sandbox_setOfferPrice…) move prices and time for every
 * application of this server, so anyone who can reach the API must not reach them. They stay on
 * the sandbox's own endpoint (loopback, or the `fundkit sandbox` an operator runs).
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

function forwardedHeaders(req: Request): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = { ...req.headers };
  for (const name of HOP_BY_HOP) delete headers[name];
  headers['x-forwarded-proto'] = req.protocol;
  return headers;
}

function unavailable(res: Response, error: Error): void {
  if (res.headersSent) {
    res.destroy(error);
    return;
  }
  res.status(503).set('Content-Type', 'application/problem+json; charset=utf-8').send(JSON.stringify({
    type: 'https://stellar.org/horizon-errors/service_unavailable', title: 'Service Unavailable', status: 503,
    detail: `The sandbox network did not answer: ${error.message}`,
  }));
}

/** A JSON-RPC body larger than any call stellar-rpc takes (a Soroban envelope is at most ~180 KB in base64). */
const RPC_BODY_LIMIT = 1024 * 1024;

/** The first sandbox_* call a JSON-RPC body (one call or a batch) makes, if any; bodies that are not JSON make none. */
function controlCall(body: Buffer): { method: string; id: unknown } | null {
  let parsed: unknown;
  try { parsed = JSON.parse(body.toString('utf8')); } catch { return null; }
  const batch = Array.isArray(parsed);
  for (const call of batch ? parsed as unknown[] : [parsed]) {
    const { method, id } = (call ?? {}) as { method?: unknown; id?: unknown };
    // a refused batch is answered as one invalid request: no id of its own
    if (typeof method === 'string' && method.startsWith('sandbox_')) return { method, id: batch ? null : id };
  }
  return null;
}

function rpcRefusal(res: Response, status: number, id: unknown, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', id: id ?? null, error: { code, message } });
}

/** Reads a JSON-RPC body whole (bounded), refuses the sandbox's controls, and forwards the rest. */
function forwardRpc(forward: (req: Request, res: Response, body: Buffer) => void): RequestHandler {
  return (req, res) => {
    if (req.method !== 'POST') return forward(req, res, Buffer.alloc(0));
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > RPC_BODY_LIMIT) {
        req.removeAllListeners('data');
        rpcRefusal(res, 413, null, -32600, `invalid request: the body is larger than ${RPC_BODY_LIMIT} bytes`);
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (res.headersSent) return;
      const body = Buffer.concat(chunks);
      const control = controlCall(body);
      if (control) {
        return rpcRefusal(res, 200, control.id, -32601, `method not found: ${control.method} is a control of the sandbox's own endpoint, not served through the API; call it at the sandbox's URL (fundkit sandbox prints it)`);
      }
      forward(req, res, body);
    });
  };
}

/** Forwards to the sandbox at `target` (http://127.0.0.1:port), keeping the original URL; `body`, when given, is sent instead of the request's stream. */
function forwardTo(base: URL, req: Request, res: Response, body?: Buffer): void {
  const headers = forwardedHeaders(req);
  if (body) headers['content-length'] = String(body.length);
  const upstream = request({
    hostname: base.hostname, port: base.port, method: req.method, path: req.originalUrl, headers,
  }, (answer) => {
    const answered = { ...answer.headers };
    for (const name of HOP_BY_HOP) delete answered[name];
    res.writeHead(answer.statusCode ?? 502, answered);
    answer.pipe(res);
  });
  upstream.on('error', (error) => unavailable(res, error));
  // a client that leaves ends the forwarded request (an event stream held open, say): on the
  // response's close, or its connection's (a pipelined request queued behind a live one never
  // sees its response close when the client drops the socket)
  const socket = req.socket;
  const leave = () => {
    socket.off('close', leave);
    upstream.destroy();
  };
  socket.once('close', leave);
  res.once('close', leave);
  if (body) upstream.end(body);
  else req.pipe(upstream);
}

/** The sandbox's Horizon and friendbot, forwarded unchanged. */
export function sandboxProxy(target: string): RequestHandler {
  const base = new URL(target);
  return (req, res) => forwardTo(base, req, res);
}

/** The sandbox's Stellar RPC: stellar-rpc's methods forwarded, its sandbox_* controls refused. */
export function sandboxRpcProxy(target: string): RequestHandler {
  const base = new URL(target);
  return forwardRpc((req, res, body) => forwardTo(base, req, res, req.method === 'POST' ? body : undefined));
}
