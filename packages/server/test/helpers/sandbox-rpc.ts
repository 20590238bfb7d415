/**
 * The sandbox of a test server, reached as any client reaches it: its Stellar RPC over HTTP,
 * with the test controls it adds (sandbox_*, packages/sandbox/src/rpc/controls.ts) beside
 * stellar-rpc's methods, on the sandbox's own endpoint (the server's /sandbox/rpc forwards stellar-rpc's only).
 */
import type { TestServer } from './server.js';

export interface SandboxOffer {
  id: number;
  seller: string;
  selling: string;
  buying: string;
  amount: string;
  price: { n: number; d: number };
}

/** The RPC URL of the sandbox `t` uses (`<sandbox>/rpc`). */
export function sandboxRpcUrl(t: TestServer): string {
  const url = t.server.services.pipeline.pipeline.stellar?.sandbox?.url;
  if (!url) throw new Error('this test server has no sandbox (not in sandbox mode)');
  return `${url}/rpc`;
}

/** A JSON-RPC call to the Stellar RPC at `rpcUrl`: its result, or a throw with the RPC's error. */
export async function rpcCall<T = any>(rpcUrl: string, method: string, params: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(rpcUrl, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const reply = await res.json() as { result?: T; error?: { code: number; message: string } };
  if (reply.error) throw new Error(`${rpcUrl} ${method} answered ${reply.error.code}: ${reply.error.message}`);
  return reply.result as T;
}

/** A JSON-RPC call to the sandbox of `t`. */
export function sandboxRpc<T = any>(t: TestServer, method: string, params: Record<string, unknown> = {}): Promise<T> {
  return rpcCall<T>(sandboxRpcUrl(t), method, params);
}

/** Closes a ledger now (sandbox_closeLedger) and answers its sequence. */
export async function closeLedger(t: TestServer): Promise<number> {
  return (await sandboxRpc<{ sequence: number }>(t, 'sandbox_closeLedger')).sequence;
}

/** The last closed ledger, as stellar-rpc's getLatestLedger reports it. */
export async function latestLedger(t: TestServer): Promise<number> {
  return (await sandboxRpc<{ sequence: number }>(t, 'getLatestLedger')).sequence;
}
