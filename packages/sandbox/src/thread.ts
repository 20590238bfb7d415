/**
 * Starts a sandbox network in a worker thread of this process (thread-entry.ts): its own ledger,
 * SQLite file and loopback HTTP, so a ledger close never holds the host's event loop. The host
 * reaches it like any network, over Stellar RPC and Horizon; the one message besides "ready" is a
 * hint that a ledger closed.
 */
import { Worker } from 'node:worker_threads';
import type { SandboxThreadData, SandboxThreadMessage } from './thread-entry.js';

export type { SandboxThreadData, SandboxThreadMessage } from './thread-entry.js';

export interface SandboxThread {
  /** Horizon's URL (the root); `${url}/rpc` is Stellar RPC, `${url}/friendbot` the friendbot */
  url: string;
  passphrase: string;
  /** its ledgers close on a clock, not one per transaction */
  clocked: boolean;
  /** called after each ledger closes; returns the unsubscribe */
  onLedger(listener: () => void): () => void;
  /** the ledger's last close and the file's checkpoint, then the thread ends */
  close(): Promise<void>;
  /** why the network is gone when its thread ended on its own (null while it runs, or after close()) */
  stopped(): string | null;
}

export interface SandboxThreadOptions {
  /** the thread does not keep the process alive */
  unref?: boolean;
  /** a module to run instead of this package's thread entry (a bundle of it, a wrapper) */
  entry?: string;
}

/**
 * This package's thread entry: the bundle beside this module (dist/thread.js); from the source
 * (tests, tsx) the source, through tsx's loader registered in the thread first (a worker does
 * not inherit the parent's loaders).
 */
function spawn(workerData: SandboxThreadData, entry?: string): Worker {
  if (entry) return new Worker(entry, { workerData });
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./thread.js', import.meta.url), { workerData });
  const source = new URL('./thread-entry.ts', import.meta.url).href;
  const boot = `(async () => { (await import('tsx/esm/api')).register(); await import(${JSON.stringify(source)}); })()`;
  return new Worker(boot, { eval: true, workerData });
}

/** `onError`: an error of the thread after it was ready (before, the promise rejects). */
export function startSandboxThread(data: SandboxThreadData, onError: (error: Error) => void, { unref = false, entry }: SandboxThreadOptions = {}): Promise<SandboxThread> {
  const worker = spawn(data, entry);
  if (unref) worker.unref();
  const listeners = new Set<() => void>();
  let exited = false;
  let closing = false;
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
        resolve({
          url: message.url,
          passphrase: message.passphrase,
          clocked: message.clocked,
          onLedger: (listener) => {
            listeners.add(listener);
            return () => listeners.delete(listener);
          },
          async close() {
            if (exited) return;
            closing = true;
            worker.postMessage({ type: 'close' });
            // a thread stuck past its close is ended: the host's own shutdown must not wait on it
            const timer = setTimeout(() => void worker.terminate(), 5000);
            await ended;
            clearTimeout(timer);
          },
          stopped: () => died,
        });
      }
    });
  });
}
