/**
 * The API's /sandbox/horizon, /sandbox/rpc and /sandbox/friendbot when the sandbox runs in its
 * own thread or process: each request is forwarded unchanged (path, query, body, and the Host a
 * client used, so links in Horizon's answers name this server), and the answer streamed back
 * (Horizon's event streams too). Wallets, the checkout and the SDK keep the URLs they had.
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

/** Forwards to the sandbox at `target` (http://127.0.0.1:port), keeping the original URL. */
export function sandboxProxy(target: string): RequestHandler {
  const base = new URL(target);
  return (req, res) => {
    const upstream = request({
      hostname: base.hostname, port: base.port, method: req.method, path: req.originalUrl, headers: forwardedHeaders(req),
    }, (answer) => {
      const headers = { ...answer.headers };
      for (const name of HOP_BY_HOP) delete headers[name];
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
    });
    upstream.on('error', (error) => unavailable(res, error));
    // a client that leaves ends the forwarded request (an event stream held open, say)
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  };
}
