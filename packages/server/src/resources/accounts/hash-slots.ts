import { ApiError } from '../../http/api-error.js';

/**
 * A bound on password hashes running at once. One scrypt at N=2^17 takes 128 MiB and a libuv
 * thread for a few hundred ms: unbounded, a burst of sign-ins takes every thread of the pool (file
 * and DNS work wait behind them) and memory by the gigabyte. `concurrency` run; up to `queue`
 * more wait their turn in order; past that the request is answered 429 RATE_LIMITED with
 * Retry-After: 1 at once (a client retries; a server that queued without end would only answer
 * later and hold the memory of every waiting request).
 */
export class HashSlots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly concurrency: number, private readonly queue: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrency) this.running++;
    else if (this.waiting.length < this.queue) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else throw new ApiError('RATE_LIMITED', 'the server is busy checking other passwords; retry after 1 s', { retryAfterSeconds: 1 });
    try {
      return await work();
    } finally {
      // the slot passes to the next in line, or frees
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
