/**
 * The sandbox network's own thread (started by thread.ts, e.g. by a Fundkit server in sandbox
 * mode): its ledger, its SQLite file and its HTTP (quickstart's layout on a
 * loopback port) off the API's event loop. The host reaches it over HTTP, as it reaches
 * testnet; the one message besides "ready" is a hint that a ledger closed, so a host's
 * follower reads it at once instead of waiting out a poll.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startStandaloneSandbox, type StandaloneOptions } from './standalone.js';

export interface SandboxThreadData extends Omit<StandaloneOptions, 'port' | 'host'> {}

export type SandboxThreadMessage =
  | { type: 'ready'; url: string; passphrase: string; clocked: boolean }
  | { type: 'ledger'; sequence: number }
  | { type: 'failed'; message: string };

const port = parentPort!;
const send = (message: SandboxThreadMessage) => port.postMessage(message);

try {
  const net = await startStandaloneSandbox({ ...(workerData as SandboxThreadData), port: 0, host: '127.0.0.1' });
  net.ledger.events.on('ledger', (sequence: number) => send({ type: 'ledger', sequence }));
  port.on('message', (message: { type: 'close' }) => {
    if (message.type !== 'close') return;
    // the ledger's last close and the file's checkpoint, then the thread ends on its own
    void net.close().finally(() => port.close());
  });
  send({ type: 'ready', url: net.url, passphrase: net.passphrase, clocked: Boolean(net.ledger.clock) });
} catch (error) {
  send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  port.close();
}
