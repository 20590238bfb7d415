/**
 * The sandbox's Stellar RPC: a JSON-RPC 2.0 endpoint (POST, application/json) answering as
 * stellar-rpc does, for `rpc.Server` of @stellar/stellar-sdk and other RPC clients. Soroban runs
 * for the built-in Stellar Asset Contracts only (sac/): no WASM contracts. Beside stellar-rpc's
 * methods, the sandbox's test controls (sandbox_*, controls.ts).
 *
 *   app.use('/sandbox/rpc', createSandboxRpcRouter(ledger, { friendbotUrl }));
 */
import express, { type Request, type Response, type Router } from 'express';
import type { SandboxLedger } from '../ledger.js';
import { addOffers, closeLedger, getOffers, getPending, removeOffers, setOfferPrice } from './controls.js';
import { getLedgerEntries } from './entries.js';
import { getEvents } from './events.js';
import {
  INTERNAL_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR, paramsObject, RpcError,
} from './errors.js';
import { getLedgers } from './ledgers.js';
import { getFeeStats, getHealth, getLatestLedger, getNetwork, getVersionInfo } from './network.js';
import { simulateTransaction } from './simulate.js';
import { getTransaction, getTransactions, sendTransaction } from './transactions.js';

export interface SandboxRpcOptions {
  /**
   * getNetwork's friendbotUrl (stellar-rpc leaves it out when not configured); a function of the
   * request where the host is known only then.
   */
  friendbotUrl?: string | ((req: Request) => string);
}

type Method = (params: Record<string, unknown>, req: Request) => Promise<unknown> | unknown;

function methods(ledger: SandboxLedger, options: SandboxRpcOptions): Record<string, Method> {
  return {
    getHealth: () => getHealth(ledger),
    getNetwork: (_p, req) => getNetwork(ledger, typeof options.friendbotUrl === 'function' ? options.friendbotUrl(req) : options.friendbotUrl),
    getVersionInfo: () => getVersionInfo(),
    getLatestLedger: () => getLatestLedger(ledger),
    getFeeStats: () => getFeeStats(ledger),
    getTransaction: (p) => getTransaction(ledger, p),
    getTransactions: (p) => getTransactions(ledger, p),
    sendTransaction: (p) => sendTransaction(ledger, p),
    getLedgerEntries: (p) => getLedgerEntries(ledger, p),
    getLedgers: (p) => getLedgers(ledger, p),
    simulateTransaction: (p) => simulateTransaction(ledger, p),
    getEvents: (p) => getEvents(ledger, p),
    // the sandbox's test controls (controls.ts): a real stellar-rpc answers these "method not found"
    sandbox_closeLedger: () => closeLedger(ledger),
    sandbox_getPending: () => getPending(ledger),
    sandbox_getOffers: (p) => getOffers(ledger, p),
    sandbox_setOfferPrice: (p) => setOfferPrice(ledger, p),
    sandbox_removeOffers: (p) => removeOffers(ledger, p),
    sandbox_addOffers: (p) => addOffers(ledger, p),
  };
}

type Id = string | number | null;

const failure = (id: Id, code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });

async function answer(table: Record<string, Method>, call: unknown, req: Request): Promise<object | null> {
  if (typeof call !== 'object' || call === null || Array.isArray(call)) return failure(null, INVALID_REQUEST, 'invalid request object');
  const { jsonrpc, id, method, params } = call as Record<string, unknown>;
  const validId = id === undefined || id === null || typeof id === 'string' || typeof id === 'number';
  const replyId = validId ? ((id ?? null) as Id) : null;
  if (jsonrpc !== '2.0' || typeof method !== 'string' || !validId) return failure(replyId, INVALID_REQUEST, 'invalid request object: jsonrpc "2.0", a method name and an id');
  const notification = id === undefined;
  let reply: object;
  try {
    const fn = table[method];
    if (!fn) {
      throw new RpcError(METHOD_NOT_FOUND, `method not found: ${method}`);
    }
    reply = { jsonrpc: '2.0', id: replyId, result: await fn(paramsObject(params), req) };
  } catch (error) {
    if (error instanceof RpcError) reply = failure(replyId, error.code, error.message);
    else {
      process.stderr.write(`[fundkit] sandbox rpc ${method} failed: ${String((error as Error)?.stack ?? error)}\n`);
      reply = failure(replyId, INTERNAL_ERROR, (error as Error)?.message ?? 'internal error');
    }
  }
  return notification ? null : reply;
}

function send(res: Response, body: unknown): void {
  res.status(200).set('Content-Type', 'application/json').send(JSON.stringify(body));
}

export function createSandboxRpcRouter(ledger: SandboxLedger, options: SandboxRpcOptions = {}): Router {
  const table = methods(ledger, options);
  const router = express.Router();
  // CORS as stellar-rpc sets it up (rs/cors allowing every origin and header): browser dapps call the RPC directly
  router.use((req, res, next) => {
    const origin = req.get('origin');
    if (!origin) return next();
    res.vary('Origin').set('Access-Control-Allow-Origin', origin);
    const method = req.get('access-control-request-method');
    if (req.method !== 'OPTIONS' || !method) return next();
    res.vary('Access-Control-Request-Method').vary('Access-Control-Request-Headers').set('Access-Control-Allow-Methods', method.toUpperCase());
    const headers = req.get('access-control-request-headers');
    if (headers) res.set('Access-Control-Allow-Headers', headers);
    res.status(204).end();
  });
  // the body as text, so that a body that is no JSON answers a JSON-RPC parse error
  router.post('/', express.text({ type: () => true, limit: '10mb' }), async (req: Request, res: Response) => {
    if (!req.is('application/json')) {
      res.status(415).set('Content-Type', 'text/plain').send('invalid content-type: the Stellar RPC takes application/json');
      return;
    }
    let body: unknown;
    try {
      // a JSON parser mounted before this router may have read the body already
      body = typeof req.body === 'string' ? JSON.parse(req.body) : req.body;
      if (body === undefined || body === null) throw new Error('no body');
    } catch {
      return send(res, failure(null, PARSE_ERROR, 'invalid JSON'));
    }
    if (Array.isArray(body)) {
      if (body.length === 0) return send(res, failure(null, INVALID_REQUEST, 'empty request batch'));
      const replies = (await Promise.all(body.map((call) => answer(table, call, req)))).filter((r) => r !== null);
      if (replies.length === 0) return void res.status(204).end();
      return send(res, replies);
    }
    const reply = await answer(table, body, req);
    if (reply === null) return void res.status(204).end();
    send(res, reply);
  });
  router.all('/', (_req, res) => {
    res.status(405).set('Allow', 'POST').set('Content-Type', 'text/plain').send('the Stellar RPC answers POST with a JSON-RPC 2.0 request');
  });
  return router;
}
