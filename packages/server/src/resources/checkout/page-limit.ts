/**
 * A token bucket per client for the hosted checkout pages: each load verifies a link secret and
 * may touch the database, so one client cannot probe links or load pages without bound. Held in
 * the process (a page is cheap to refuse, and the secret's 192 bits are the real guard); the
 * oldest clients are forgotten past a bound, so the map cannot grow without limit.
 */
export class ClientBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly burst = 60,
    private readonly perSecond = 1,
    private readonly maxClients = 10_000,
  ) {}

  /** Takes one token: 0 when allowed, else the whole seconds until the next one. */
  take(client: string, now = Date.now()): number {
    const last = this.buckets.get(client);
    const tokens = last ? Math.min(this.burst, last.tokens + ((now - last.at) / 1000) * this.perSecond) : this.burst;
    this.buckets.delete(client);
    if (this.buckets.size >= this.maxClients) this.buckets.delete(this.buckets.keys().next().value!);
    if (tokens < 1) {
      this.buckets.set(client, { tokens, at: now });
      return Math.max(1, Math.ceil((1 - tokens) / this.perSecond));
    }
    this.buckets.set(client, { tokens: tokens - 1, at: now });
    return 0;
  }
}
