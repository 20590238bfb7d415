import type { Request, Response } from 'express';

const POLL_MS = 500;
const HEARTBEAT_MS = 15_000;

export interface StatusSource {
  /** the public view now (throws an ApiError when it cannot be read) */
  view(): Promise<object>;
  /** changes whenever the view may have; null when the intent is gone */
  marker(): Promise<string | null>;
}

export function wantsEventStream(req: Request): boolean {
  return (req.get('accept') ?? '').includes('text/event-stream');
}

/**
 * Server-Sent Events: the view now, then again each time the intent changes. The server has no
 * in-process event bus for intents, so each stream polls one indexed row every 500 ms and builds
 * the view only when it moved; comments keep proxies from closing an idle stream.
 */
export async function streamStatus(req: Request, res: Response, source: StatusSource): Promise<void> {
  const first = await source.view(); // before any header: an auth or 404 error still gets its envelope
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  res.write('retry: 2000\n\n');
  const send = (view: object) => res.write(`event: status\ndata: ${JSON.stringify(view)}\n\n`);
  send(first);
  let last = await source.marker();
  let polling = false;
  // one poll at a time: a read slower than the interval is not started again meanwhile
  const poll = setInterval(() => {
    if (polling) return;
    polling = true;
    void (async () => {
      const now = await source.marker();
      if (now === null) return stop();
      if (now === last) return;
      last = now;
      send(await source.view());
    })().catch(() => stop()).finally(() => { polling = false; });
  }, POLL_MS);
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
  function stop(): void {
    clearInterval(poll);
    clearInterval(heartbeat);
    if (!res.writableEnded) res.end();
  }
  req.on('close', stop);
}
