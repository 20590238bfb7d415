/**
 * Starts the sandbox network in a worker thread of this process (@fundkit/sandbox's thread entry):
 * its own ledger, SQLite file and loopback HTTP, so a ledger close never holds the API's event
 * loop. The server then reaches it like any network, over Stellar RPC and Horizon, and its faucet
 * over HTTP (link.ts).
 */
import { startSandboxThread as startThread, type SandboxThreadData, type SandboxThreadOptions } from '@fundkit/sandbox';
import { httpLink, type SandboxLink } from './link.js';

export interface SandboxThread extends SandboxLink {
  url: string;
  passphrase: string;
}

/**
 * `unref`: the thread does not keep the process alive (a sandbox shared by whatever runs in it);
 * `entry`: a module to run instead of the package's thread entry (a test's wrapper).
 */
export async function startSandboxThread(data: SandboxThreadData, onError: (error: Error) => void, options: SandboxThreadOptions = {}): Promise<SandboxThread> {
  const thread = await startThread(data, onError, options);
  const link = httpLink(thread.url, { clocked: thread.clocked, onLedger: thread.onLedger, close: () => thread.close() });
  return { ...link, url: thread.url, passphrase: thread.passphrase, stopped: () => thread.stopped() };
}
