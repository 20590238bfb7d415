import { call, type Target } from '../crash/traffic.js';

/**
 * A client that follows GET /v1/events the way a poller does: it reads from the top (newest
 * first) until it reaches the newest event it already has, and keeps what is above. If the list
 * ever showed a new event below one already seen, this poller would never see it.
 */
export class EventPoller {
  readonly seen = new Set<string>();
  private newest: string | null = null;

  /** One poll; a failed request (a killed process's 502) leaves the next poll to start over. */
  async poll(target: Target): Promise<void> {
    const fresh: string[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page = await call(target, 'GET', `/v1/events?limit=100${cursor ? `&cursor=${cursor}` : ''}`).catch(() => null);
      if (page?.status !== 200) return;
      const data = page.body.data as Array<{ id: string }>;
      const reached = data.findIndex((e) => e.id === this.newest);
      fresh.push(...data.slice(0, reached < 0 ? data.length : reached).map((e) => e.id));
      if (reached >= 0 || !page.body.next_cursor) break;
      cursor = page.body.next_cursor as string;
    }
    for (const id of fresh) this.seen.add(id);
    if (fresh.length) this.newest = fresh[0]!;
  }

  /** Polls every `everyMs` until `stopped()` says so. */
  async follow(target: Target, stopped: () => boolean, everyMs = 100): Promise<void> {
    while (!stopped()) {
      await this.poll(target);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }
}
