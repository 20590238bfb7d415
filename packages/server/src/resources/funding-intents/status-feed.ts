/**
 * Which intents this process's status streams follow, and whether they moved: one query a tick for
 * every open stream together, however many there are. Each stream used to read its own intent
 * every 500 ms, so 1,000 open checkouts were 2,000 queries a second on the database every server
 * shares. The database is the only place a change made by any server shows (no in-process bus),
 * so polling it is what makes a stream on one server see the pipeline of another.
 *
 * Why not LISTEN/NOTIFY on PostgreSQL: a transaction that notifies takes a cluster-wide lock
 * from its commit until after its WAL flush (async.c's "database 0" lock), so every state change
 * would commit one at a time; a change is seen here within one tick, well inside a ledger's 5 s.
 */

/** What a stream is told: its intent moved (build the view again), is gone, or the server is closing. */
export type StatusChange = 'moved' | 'gone' | 'closing';
export type StatusListener = (change: StatusChange) => void;

export interface StatusFeedDeps {
  /** the change marker of each of these intents that exists */
  markers(ids: string[]): Promise<Map<string, string>>;
  /** a failed read is reported and the next tick reads again; the streams stay open */
  onError(error: unknown): void;
  pollMs?: number;
}

interface Followed {
  marker: string;
  listeners: Set<StatusListener>;
}

const POLL_MS = 500;
/** ids a query at most (one array parameter) */
const CHUNK = 1_000;

export class StatusFeed {
  private readonly followed = new Map<string, Followed>();
  private readonly pollMs: number;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly deps: StatusFeedDeps) {
    this.pollMs = deps.pollMs ?? POLL_MS;
  }

  /**
   * Follows `id` from now: a change after this resolves reaches `listener`. Resolves to the
   * function that stops following, or null when the intent does not exist or the feed is closed.
   */
  async follow(id: string, listener: StatusListener): Promise<(() => void) | null> {
    if (this.closed) return null;
    if (!this.followed.has(id)) {
      const marker = (await this.deps.markers([id])).get(id);
      if (marker === undefined || this.closed) return null;
      // another stream may have started following it meanwhile: its marker is as fresh
      if (!this.followed.has(id)) this.followed.set(id, { marker, listeners: new Set() });
    }
    this.followed.get(id)!.listeners.add(listener);
    this.schedule();
    return () => this.unfollow(id, listener);
  }

  /** Ends every stream ('closing') and stops polling: the server is about to stop. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const listeners = [...this.followed.values()].flatMap((f) => [...f.listeners]);
    this.followed.clear();
    for (const listener of listeners) this.tell(listener, 'closing');
  }

  /** one stream's failure is its own: the others are still told */
  private tell(listener: StatusListener, change: StatusChange): void {
    try {
      listener(change);
    } catch (error) {
      this.deps.onError(error);
    }
  }

  private unfollow(id: string, listener: StatusListener): void {
    const followed = this.followed.get(id);
    if (!followed) return;
    followed.listeners.delete(listener);
    if (followed.listeners.size === 0) this.followed.delete(id);
  }

  /** one tick at a time, and none while nothing is followed */
  private schedule(): void {
    if (this.timer || this.closed || this.followed.size === 0) return;
    this.timer = setTimeout(() => {
      void this.tick().catch((error: unknown) => this.deps.onError(error)).finally(() => {
        this.timer = null;
        this.schedule();
      });
    }, this.pollMs);
  }

  private async tick(): Promise<void> {
    const ids = [...this.followed.keys()];
    const now = new Map<string, string>();
    try {
      for (let i = 0; i < ids.length; i += CHUNK) {
        for (const [id, marker] of await this.deps.markers(ids.slice(i, i + CHUNK))) now.set(id, marker);
      }
    } catch (error) {
      return this.deps.onError(error);
    }
    if (this.closed) return;
    for (const id of ids) this.compare(id, now.get(id));
  }

  private compare(id: string, marker: string | undefined): void {
    const followed = this.followed.get(id);
    if (!followed || followed.marker === marker) return;
    if (marker === undefined) this.followed.delete(id);
    else followed.marker = marker;
    for (const listener of [...followed.listeners]) this.tell(listener, marker === undefined ? 'gone' : 'moved');
  }
}
