import type { Request, Response } from 'express';
import type { StatusChange, StatusListener } from '../funding-intents/status-feed.js';

const HEARTBEAT_MS = 15_000;

export interface StatusSource {
  /** the public view now (throws an ApiError when it cannot be read) */
  view(): Promise<object>;
  /** follows the intent's changes from now (the process's StatusFeed); null when it is gone */
  follow(listener: StatusListener): Promise<(() => void) | null>;
}

export function wantsEventStream(req: Request): boolean {
  return (req.get('accept') ?? '').includes('text/event-stream');
}

/**
 * Server-Sent Events: the view now, then again each time the intent changes (the process's
 * StatusFeed tells, whichever server changed it). The stream ends when the intent is gone or the
 * server is closing: the checkout reconnects, behind a load balancer to another server.
 * Comments keep proxies from closing an idle stream.
 */
export async function streamStatus(res: Response, source: StatusSource): Promise<void> {
  let started = false;
  /** the intent is gone or the server is closing: the stream ends after what it has to send */
  let ending = false;
  let sending: Promise<void> | null = null;
  let again = false;
  let heartbeat: NodeJS.Timeout | undefined;
  let unfollow: (() => void) | null = null;
  let left = false;
  let last = '';
  // the payer leaving at any point, before the first view too, ends following
  res.on('close', () => {
    left = true;
    release();
  });
  // following starts before the first view is read, so no change after that read is missed
  unfollow = await source.follow(onChange);
  let first: object;
  try {
    first = await source.view(); // before any header: an auth or 404 error still gets its envelope
  } catch (error) {
    release(); // the response is the error handler's to send
    throw error;
  }
  if (left) return release();
  // a stream that only sends this view (the server is closing, or the intent is gone) closes its
  // connection too: kept alive, the checkout's reconnects would hold a closing server open
  if (ending || !unfollow) res.setHeader('Connection', 'close');
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  res.write('retry: 2000\n\n');
  send(first);
  started = true;
  if (!unfollow || ending) return stop();
  heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
  // a move while the first view was read: that view may predate it
  if (again) onChange('moved');

  /** a view only when it differs from the last sent (a marker can move ahead of the view read after it) */
  function send(view: object): void {
    const json = JSON.stringify(view);
    if (json === last) return;
    last = json;
    res.write(`event: status\ndata: ${json}\n\n`);
  }

  function onChange(change: StatusChange): void {
    if (change !== 'moved') {
      ending = true;
      if (started) stop();
      return;
    }
    // one view at a time; moves meanwhile (or before the first was sent) make one more
    if (sending || !started) return void (again = true);
    sending = (async () => {
      do {
        again = false;
        const view = await source.view();
        if (!left && !res.writableEnded) send(view);
      } while (again && !left && !res.writableEnded);
    })().catch(() => stop()).finally(() => { sending = null; });
  }

  function release(): void {
    clearInterval(heartbeat);
    unfollow?.();
    unfollow = null;
  }

  function stop(): void {
    release();
    if (!res.writableEnded) res.end();
  }
}
