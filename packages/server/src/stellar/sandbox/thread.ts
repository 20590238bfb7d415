/**
 * Starts the sandbox network in a worker thread of this process (src/sandbox-thread.ts): its own
 * ledger, SQLite file and loopback HTTP, so a ledger close never holds the API's event loop. The
 * server then reaches it like any network, over Stellar RPC and Horizon.
 */
import { spawnThread } from '../../lib/thread.js';
import type { SandboxThreadData, SandboxThreadMessage } from '../../sandbox-thread.js';
import { httpLink, type SandboxLink } from './link.js';

export interface SandboxThread extends SandboxLink {
  url: string;
  passphrase: string;
}

/**
 * `unref`: the thread does not keep the process alive (a sandbox shared by whatever runs in it);
 * `entry`: a bundle of src/sandbox-thread.ts to run (the tests build one for their run).
 */
export function startSandboxThread(data: SandboxThreadData, onError: (error: Error) => void, { unref = false, entry }: { unref?: boolean; entry?: string } = {}): Promise<SandboxThread> {
  const worker = spawnThread('sandbox-thread', data, entry);
  if (unref) worker.unref();
  const listeners = new Set<() => void>();
  let exited = false;
  let closing = false;
  /** set when the thread ended without being asked to: what /readyz says (the network check) */
  let died: string | null = null;
  const ended = new Promise<void>((resolve) => worker.once('exit', (code) => {
    exited = true;
    if (!closing) died = `the sandbox thread stopped (exit code ${code}): the sandbox network is gone; restart the server`;
    resolve();
  }));
  return new Promise((resolve, reject) => {
    let ready = false;
    worker.on('error', (error) => (ready ? onError(error) : reject(error)));
    void ended.then(() => {
      if (!ready) reject(new Error('the sandbox thread ended before it was ready'));
    });
    worker.on('message', (message: SandboxThreadMessage) => {
      if (message.type === 'ledger') for (const listener of listeners) listener();
      else if (message.type === 'failed') reject(new Error(`the sandbox thread could not start: ${message.message}`));
      else if (message.type === 'ready') {
        ready = true;
        const link = httpLink(message.url, {
          clocked: message.clocked,
          onLedger: (listener) => {
            listeners.add(listener);
            return () => listeners.delete(listener);
          },
          async close() {
            if (exited) return;
            closing = true;
            worker.postMessage({ type: 'close' });
            // a thread stuck past its close is ended: the server's own shutdown must not wait on it
            const timer = setTimeout(() => void worker.terminate(), 5000);
            await ended;
            clearTimeout(timer);
          },
        });
        resolve({ ...link, url: message.url, passphrase: message.passphrase, stopped: () => died });
      }
    });
  });
}
