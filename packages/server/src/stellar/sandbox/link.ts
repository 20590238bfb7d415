/**
 * What a server in sandbox mode needs of its sandbox beyond what any Stellar network offers:
 * when a ledger closed (so the follower reads it at once), and the faucet (its treasury's float,
 * a settlement address made to exist, the test helpers' payers). The sandbox runs in its own
 * thread (the default) or in another process (`fundkit sandbox`, shared by several servers), and
 * is reached over HTTP either way.
 */
import { Horizon } from '@stellar/stellar-sdk';
import { assetKey, type AssetRef } from '../assets.js';
import { fromStroops } from '../../lib/money.js';

export interface SandboxLink {
  /** the sandbox's own HTTP root (its thread's loopback port, or a `fundkit sandbox`) */
  readonly url: string;
  /** its ledgers close on a clock (FUNDKIT_SANDBOX_LEDGER_SECONDS), not one per transaction */
  readonly clocked: boolean;
  /** called after each ledger closes (its thread's message, a remote sandbox's Horizon stream); returns the unsubscribe */
  onLedger(listener: () => void): () => void;
  /** credits `amount` (creating the account, with a trustline for an issued asset) */
  fund(address: string, asset: AssetRef, amount: bigint): Promise<void>;
  /** the account and its trustline to `asset` exist afterwards (a merchant's settlement address) */
  ensure(address: string, asset: AssetRef): Promise<void>;
  close(): Promise<void>;
  /** why the sandbox is gone when its thread ended on its own (null while it runs, or after close()) */
  stopped?(): string | null;
}

export interface HttpLinkOptions {
  clocked: boolean;
  onLedger: (listener: () => void) => () => void;
  close?: () => Promise<void>;
}

/** A sandbox reached over HTTP: its faucet is POST /sandbox/faucet (faucet-router.ts). */
export function httpLink(url: string, options: HttpLinkOptions): SandboxLink {
  const faucet = async (address: string, asset: AssetRef, amount: bigint | null) => {
    const body = { addr: address, asset: asset.issuer === null ? 'XLM' : assetKey(asset), ...(amount === null ? {} : { amount: fromStroops(amount) }) };
    const res = await fetch(`${url}/sandbox/faucet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`the sandbox faucet at ${url} answered ${res.status}: ${await res.text()}`);
  };
  const ensured = new Set<string>();
  return {
    url,
    clocked: options.clocked,
    onLedger: options.onLedger,
    fund: (address, asset, amount) => faucet(address, asset, amount),
    async ensure(address, asset) {
      // settlements to one address repeat: one request for it a process
      const key = `${address}/${assetKey(asset)}`;
      if (ensured.has(key)) return;
      await faucet(address, asset, null);
      ensured.add(key);
    },
    close: options.close ?? (async () => undefined),
  };
}

/**
 * The ledger closes of a sandbox at `url` (a `fundkit sandbox`), followed on its Horizon's
 * /ledgers stream, as any Horizon client can: one connection, open while anyone listens, so
 * servers sharing one sandbox read each ledger as it closes instead of polling for it.
 */
export function ledgerStream(url: string): { onLedger(listener: () => void): () => void; close(): void } {
  const listeners = new Set<() => void>();
  let stop: (() => void) | null = null;
  const close = () => {
    stop?.();
    stop = null;
  };
  return {
    onLedger(listener) {
      listeners.add(listener);
      stop ??= new Horizon.Server(url, { allowHttp: true }).ledgers().cursor('now').stream({
        onmessage: () => {
          for (const l of listeners) l();
        },
        // the stream reconnects by itself (the sandbox asks for 1 s); a close missed meanwhile is
        // read at the next one, or at the follower's idle read
        onerror: () => undefined,
      });
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) close();
      };
    },
    close() {
      listeners.clear();
      close();
    },
  };
}
