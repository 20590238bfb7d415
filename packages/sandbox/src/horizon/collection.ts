/**
 * One handler for every Horizon list: `cursor`, `limit` (1–200, default 10), `order`, optional
 * `include_failed` and `join`, HAL pages with self/next/prev links, and — with
 * `Accept: text/event-stream` — Horizon's SSE stream, which sends what exists after the cursor,
 * then each new record as the ledger closing it commits.
 */
import type { Request, Response } from 'express';
import type { SandboxLedger } from '../ledger.js';
import { oneAtATime } from '../shared/one-at-a-time.js';
import { badRequest, baseUrl, sendHal } from './render.js';

export interface ListParams {
  /** '' for the beginning (asc) or the end (desc). */
  cursor: string;
  limit: number;
  order: 'asc' | 'desc';
  includeFailed: boolean;
  join: boolean;
}

export interface Collection<R extends { paging_token: string }> {
  /** Which cursors this list accepts, besides '' and 'now'. */
  cursor: RegExp;
  /** The cursor "now" stands for: after everything already closed. */
  now: () => Promise<string> | string;
  fetch: (p: ListParams) => Promise<R[]>;
  render: (r: R, base: string, p: ListParams) => unknown;
  /** Lists that accept include_failed / join (the others refuse them as Horizon does). */
  failed?: boolean;
  joinable?: boolean;
}

const STREAM_BATCH = 200;

async function parseParams<R extends { paging_token: string }>(req: Request, c: Collection<R>): Promise<ListParams | { field: string }> {
  const q = req.query as Record<string, string | undefined>;
  const limit = q.limit === undefined || q.limit === '' ? 10 : Number(q.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) return { field: 'limit' };
  const order = q.order === undefined || q.order === '' ? 'asc' : q.order;
  if (order !== 'asc' && order !== 'desc') return { field: 'order' };
  // The SSE resume header wins over the cursor parameter, as in Horizon.
  let cursor = req.get('Last-Event-ID') ?? q.cursor ?? '';
  if (cursor === 'now') cursor = await c.now();
  if (cursor !== '' && !c.cursor.test(cursor)) return { field: 'cursor' };
  const failed = q.include_failed;
  if (failed !== undefined && failed !== '' && (!c.failed || (failed !== 'true' && failed !== 'false'))) {
    return { field: 'include_failed' };
  }
  if (q.join !== undefined && q.join !== '' && (!c.joinable || q.join !== 'transactions')) return { field: 'join' };
  return { cursor, limit, order, includeFailed: failed === 'true', join: q.join === 'transactions' };
}

function pageHref(base: string, path: string, p: ListParams, cursor: string, order: string): string {
  const extra = `${p.includeFailed ? '&include_failed=true' : ''}${p.join ? '&join=transactions' : ''}`;
  return `${base}${path}?cursor=${cursor}&limit=${p.limit}&order=${order}${extra}`;
}

async function sendPage<R extends { paging_token: string }>(req: Request, res: Response, c: Collection<R>, p: ListParams): Promise<void> {
  const base = baseUrl(req);
  const records = await c.fetch(p);
  const rendered = [];
  for (const r of records) rendered.push(await c.render(r, base, p));
  const first = records[0]?.paging_token ?? p.cursor;
  const last = records.at(-1)?.paging_token ?? p.cursor;
  const reverse = p.order === 'asc' ? 'desc' : 'asc';
  sendHal(res, {
    _links: {
      self: { href: pageHref(base, req.path, p, p.cursor, p.order) },
      next: { href: pageHref(base, req.path, p, last, p.order) },
      prev: { href: pageHref(base, req.path, p, first, reverse) },
    },
    _embedded: { records: rendered },
  });
}

function stream<R extends { paging_token: string }>(
  req: Request, res: Response, ledger: SandboxLedger, c: Collection<R>, p: ListParams,
): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'Access-Control-Allow-Origin': '*',
  });
  res.write('retry: 1000\nevent: open\ndata: "hello"\n\n');
  const base = baseUrl(req);
  let cursor = p.cursor;
  // Re-reading from the last sent token on every close means nothing is skipped or repeated.
  const drain = async () => {
    for (;;) {
      const batch = await c.fetch({ ...p, cursor, limit: STREAM_BATCH, order: 'asc' });
      for (const r of batch) {
        res.write(`id: ${r.paging_token}\ndata: ${JSON.stringify(await c.render(r, base, p))}\n\n`);
        cursor = r.paging_token;
      }
      if (batch.length < STREAM_BATCH) return;
    }
  };
  const flush = oneAtATime(() => drain().catch(() => void res.end()), () => !res.writableEnded);
  flush();
  ledger.events.on('ledger', flush);
  res.on('close', () => ledger.events.off('ledger', flush));
}

export async function serveCollection<R extends { paging_token: string }>(
  ledger: SandboxLedger, req: Request, res: Response, c: Collection<R>,
): Promise<void> {
  const p = await parseParams(req, c);
  if ('field' in p) return badRequest(res, p.field, 'unparseable value');
  if ((req.get('Accept') ?? '').includes('text/event-stream')) return stream(req, res, ledger, c, p);
  await sendPage(req, res, c, p);
}
