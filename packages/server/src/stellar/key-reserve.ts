/**
 * New deposit keys as they are stored: the address and the secret sealed with the deposit secrets
 * key (AES-256-GCM, lib/crypto.ts). A create that finds the deposit pool empty takes one made
 * ahead instead of making it inside the request. A key never handed out is never used anywhere,
 * so one lost with the process costs nothing.
 */
import type { Worker } from 'node:worker_threads';
import { encryptSecret } from '../lib/crypto.js';
import { spawnThread } from '../lib/thread.js';
import { NativeKeypair } from './keypair.js';

export interface SealedKey {
  address: string;
  /** the secret, encrypted with the deposit secrets key */
  sealed: string;
}

/** A key made and sealed now, on the calling thread (~0.06 ms: a random seed imported, its public key, AES-GCM). */
export function sealNewKey(secretsKey: Buffer): SealedKey {
  const keypair = NativeKeypair.random();
  return { address: keypair.publicKey(), sealed: encryptSecret(secretsKey, keypair.secret()) };
}

export interface KeyReserveOptions {
  /** keys kept ready; refilled when half are gone */
  size?: number;
  /**
   * Keys handed out on this thread before the rest are made on a thread of their own
   * (src/key-thread.ts). At saturation on the instant sandbox, making keys took ~14 % of the
   * API's thread (profiled); a server that makes few never pays the thread's start.
   */
  threadAfter?: number;
}

/** keys made per turn of the event loop while no key thread runs: a slice holds the loop ~1 ms */
const SLICE = 16;

export class KeyReserve {
  private readonly keys: SealedKey[] = [];
  private readonly size: number;
  private readonly threadAfter: number;
  private filling = false;
  private handedOut = 0;
  private thread: Worker | null = null;
  /** the thread failed to start or died: keys are made here again */
  private threadFailed = false;
  private closed = false;
  /** keys the thread has sent (tests) */
  private fromThread = 0;

  constructor(private readonly secretsKey: Buffer, options: KeyReserveOptions = {}) {
    this.size = options.size ?? 256;
    this.threadAfter = options.threadAfter ?? 256;
  }

  take(): SealedKey {
    const key = this.keys.pop() ?? sealNewKey(this.secretsKey);
    this.handedOut++;
    this.refill();
    return key;
  }

  /** Ready keys now (tests). */
  get ready(): number {
    return this.keys.length;
  }

  /** Keys come from the key thread (tests). */
  get threaded(): boolean {
    return this.fromThread > 0;
  }

  /** Ends the key thread, if one runs. */
  async close(): Promise<void> {
    this.closed = true;
    await this.thread?.terminate();
    this.thread = null;
  }

  private refill(): void {
    if (this.filling || this.closed || this.keys.length > this.size / 2) return;
    this.filling = true;
    this.next();
  }

  /** The rest of a refill: from the thread once enough keys were handed out (also in the middle of a refill), else a slice here. */
  private next(): void {
    if (this.handedOut >= this.threadAfter && !this.threadFailed) this.askThread();
    else setImmediate(() => this.slice());
  }

  private slice(): void {
    for (let n = 0; n < SLICE && this.keys.length < this.size; n++) this.keys.push(sealNewKey(this.secretsKey));
    if (this.keys.length < this.size && !this.closed) this.next();
    else this.filling = false;
  }

  private askThread(): void {
    this.thread ??= this.startThread();
    this.thread.postMessage(this.size - this.keys.length);
  }

  private startThread(): Worker {
    const worker = spawnThread('key-thread', { secretsKey: this.secretsKey });
    // a reserve never keeps a process alive
    worker.unref();
    worker.on('message', (keys: SealedKey[]) => {
      for (const key of keys) this.keys.push(key);
      this.fromThread += keys.length;
      this.filling = false;
      this.refill();
    });
    const lost = () => {
      if (this.closed) return;
      this.thread = null;
      this.threadFailed = true;
      this.filling = false;
      this.refill();
    };
    // an error ends the thread: 'exit' follows, and says it once
    worker.on('error', () => {});
    worker.once('exit', lost);
    return worker;
  }
}
