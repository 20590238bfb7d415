/**
 * A sandbox network reached as the server reaches it: a `fundkit sandbox` (@fundkit/sandbox's
 * standalone, in this process but over HTTP) with the server's Stellar RPC adapter, its Horizon
 * for the test's reads, and its faucet and sandbox_* controls over HTTP. For the tests that drive
 * the server's adapters directly (the submission engine).
 */
import { Horizon, Keypair } from '@stellar/stellar-sdk';
import { startStandaloneSandbox } from '@fundkit/sandbox';
import { createRpcNetwork } from '../../src/stellar/rpc/index.js';
import type { StellarNetwork } from '../../src/stellar/index.js';
import { rpcCall } from '../helpers/sandbox-rpc.js';

export interface Sandbox {
  /** the sandbox's root: Horizon, with /rpc, /friendbot and /sandbox/faucet under it */
  url: string;
  passphrase: string;
  horizon: Horizon.Server;
  /** the server's adapter over its Stellar RPC, as a server in sandbox mode has it */
  network: StellarNetwork;
  /** a funded account of genesis, standing in for a server's treasury */
  treasury: Keypair;
  /** a JSON-RPC call to the sandbox (sandbox_closeLedger, sandbox_getPending, …) */
  rpc<T = any>(method: string, params?: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
}

/** A fresh sandbox on an in-memory chain; `ledgerSeconds` > 0 keeps time (closes come from sandbox_closeLedger). */
export async function startSandbox(options: { ledgerSeconds?: number } = {}): Promise<Sandbox> {
  const s = await startStandaloneSandbox({ dbPath: ':memory:', port: 0, ledgerSeconds: options.ledgerSeconds ?? 0 });
  const info = await (await fetch(`${s.url}/sandbox/info`)).json() as { passphrase: string; assets: string[] };
  const issuer = (code: string) => info.assets.find((a) => a.startsWith(`${code}:`))!.slice(code.length + 1);
  const network = createRpcNetwork({
    kind: 'sandbox', passphrase: info.passphrase, rpcUrl: s.rpcUrl, horizonUrl: s.url, friendbotUrl: s.friendbotUrl,
    issuers: { USDC: issuer('USDC'), EURC: issuer('EURC') }, api: 'rpc',
  }, { pollDelay: () => 10 });
  return {
    url: s.url, passphrase: info.passphrase, horizon: new Horizon.Server(s.url, { allowHttp: true }), network,
    treasury: Keypair.fromSecret(s.keys.treasury.secret), rpc: (method, params = {}) => rpcCall(s.rpcUrl, method, params), close: () => s.close(),
  };
}

/** Closes a ledger whenever a transaction waits for one (a clocked sandbox driven by the test); returns the stop. */
export function closeWhilePending(sb: Sandbox): () => void {
  let stopped = false;
  void (async () => {
    while (!stopped) {
      if ((await sb.rpc<{ count: number }>('sandbox_getPending').catch(() => ({ count: 0 }))).count > 0 && !stopped) await sb.rpc('sandbox_closeLedger').catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return () => { stopped = true; };
}

/** A fresh account the faucet funded with `xlm` XLM (POST /sandbox/faucet: a direct write, no close needed). */
export async function fundedAccount(sb: Sandbox, xlm = '100'): Promise<Keypair> {
  const kp = Keypair.random();
  const res = await fetch(`${sb.url}/sandbox/faucet`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ addr: kp.publicKey(), asset: 'XLM', amount: xlm }),
  });
  if (!res.ok) throw new Error(`the faucet answered ${res.status}: ${await res.text()}`);
  return kp;
}

export function stroops(amount: string): bigint {
  const [w = '0', f = ''] = amount.split('.');
  return BigInt(w) * 10_000_000n + BigInt(f.padEnd(7, '0'));
}
