/**
 * A worker thread of this package from its entry module (src/<name>.ts): the bundle's in dist/
 * (the published bin); under tests and `tsx src/…` the source, through tsx's loader registered in
 * the thread first (a worker does not inherit the parent's loaders). `entry` runs a given bundle
 * instead. (The sandbox's thread is @fundkit/sandbox's own: its startSandboxThread.)
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { packageRoot } from '../package-root.js';

export type ThreadEntry = 'key-thread';

export function spawnThread(name: ThreadEntry, workerData: unknown, entry?: string): Worker {
  if (entry) return new Worker(entry, { workerData });
  if (!import.meta.url.endsWith('.ts')) return new Worker(join(packageRoot(), 'dist', `${name}.js`), { workerData });
  const source = new URL(`../${name}.ts`, import.meta.url).href;
  const boot = `(async () => { (await import('tsx/esm/api')).register(); await import(${JSON.stringify(source)}); })()`;
  return new Worker(boot, { eval: true, workerData });
}
