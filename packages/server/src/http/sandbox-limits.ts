/**
 * Per-client bounds on the API's /sandbox/* (sandbox mode): a token bucket on requests, and a cap
 * on requests open at once (Horizon's event streams stay open), so a client that reaches a
 * sandbox server over the network cannot tie up its sockets or the sandbox's thread for the
 * developer and the payers using it. A client on this machine (genuine loopback: the developer,
 * `fundkit pay`, a wallet or test on it) is not bounded. Held in the process: the sandbox is a
 * development network, and each server forwards to it on its own.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { SandboxProxyLimits } from '../config.js';
import { clientKey } from './client-key.js';
import { isGenuineLoopback } from './loopback.js';

/** Clients remembered at most (the oldest forgotten first), so the maps cannot grow without bound. */
const MAX_CLIENTS = 10_000;

function refuse(req: Request, res: Response, waitSeconds: number, why: string): void {
  res.setHeader('Retry-After', String(waitSeconds));
  // each in its network's own shape: stellar-rpc's JSON-RPC error, else Horizon's problem document
  if (req.baseUrl === '/sandbox/rpc') return void res.status(429).json({ jsonrpc: '2.0', id: null, error: { code: -32000, message: `rate limit exceeded: ${why}` } });
  res.status(429).set('Content-Type', 'application/problem+json; charset=utf-8').send(JSON.stringify({
    type: 'https://stellar.org/horizon-errors/rate_limit_exceeded', title: 'Rate Limit Exceeded', status: 429,
    detail: `${why}; retry after ${waitSeconds} s`,
  }));
}

export function sandboxProxyLimits(limits: SandboxProxyLimits, now: () => number = Date.now): RequestHandler {
  const burst = limits.ratePerSecond * 2;
  const buckets = new Map<string, { tokens: number; at: number }>();
  const open = new Map<string, number>();
  return (req, res, next) => {
    if (isGenuineLoopback(req)) return next();
    const client = clientKey(req);
    const at = now();
    const last = buckets.get(client);
    const tokens = last ? Math.min(burst, last.tokens + ((at - last.at) / 1000) * limits.ratePerSecond) : burst;
    buckets.delete(client);
    if (buckets.size >= MAX_CLIENTS) buckets.delete(buckets.keys().next().value!);
    if (tokens < 1) {
      buckets.set(client, { tokens, at });
      return refuse(req, res, Math.max(1, Math.ceil((1 - tokens) / limits.ratePerSecond)), 'too many requests from this client');
    }
    buckets.set(client, { tokens: tokens - 1, at });
    const held = open.get(client) ?? 0;
    if (held >= limits.open) return refuse(req, res, 1, `this client has ${limits.open} requests open (event streams count until they end)`);
    if (!open.has(client) && open.size >= MAX_CLIENTS) return refuse(req, res, 1, 'too many clients at once');
    open.set(client, held + 1);
    // once, on whichever comes first: the response's close, or its connection's (a pipelined
    // request queued behind a live one never sees its response close when the client drops the
    // socket). Not the request's own close: Node fires it as soon as its body is read.
    const socket = req.socket;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      socket.off('close', release);
      const left = (open.get(client) ?? 1) - 1;
      if (left > 0) open.set(client, left);
      else open.delete(client);
    };
    socket.once('close', release);
    res.once('close', release);
    next();
  };
}
