/** GET /accounts/{id}/payments: HAL pages, or an SSE stream with Accept: text/event-stream. */
import type { Request, Response } from 'express';
import type { HorizonPaymentRecord } from '../../horizon-types.js';
import type { HistoryQuery } from '../history.js';
import type { SandboxLedger } from '../ledger.js';
import { participants, withLinks } from '../records.js';
import { transactionLinks } from '../tx-resource.js';
import { badRequest, baseUrl, sendHal } from './render.js';

interface PageParams {
  cursor: string;
  limit: number;
  order: 'asc' | 'desc';
  includeFailed: boolean;
  join: boolean;
}

function parseParams(req: Request, ledger: SandboxLedger): PageParams | { field: string } {
  const q = req.query as Record<string, string | undefined>;
  const limit = q.limit === undefined || q.limit === '' ? 10 : Number(q.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) return { field: 'limit' };
  const order = q.order === undefined || q.order === '' ? 'asc' : q.order;
  if (order !== 'asc' && order !== 'desc') return { field: 'order' };
  // The SSE resume header wins over the cursor parameter, as in Horizon.
  let cursor = req.get('Last-Event-ID') ?? q.cursor ?? '';
  if (cursor === 'now') cursor = ledger.latestPagingToken().toString();
  if (cursor !== '' && !/^\d{1,19}$/.test(cursor)) return { field: 'cursor' };
  return { cursor, limit, order, includeFailed: q.include_failed === 'true', join: q.join === 'transactions' };
}

function toQuery(account: string, p: PageParams): HistoryQuery {
  return {
    account, limit: p.limit, order: p.order, includeFailed: p.includeFailed,
    ...(p.cursor !== '' ? { cursor: BigInt(p.cursor) } : {}),
  };
}

/** The record with links and, with join=transactions, its transaction after transaction_hash. */
function render(ledger: SandboxLedger, r: HorizonPaymentRecord, base: string, join: boolean): HorizonPaymentRecord {
  const linked = withLinks(r, base);
  if (!join) return linked;
  const tx = ledger.getTransaction(r.transaction_hash);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(linked)) {
    out[k] = v;
    if (k === 'transaction_hash' && tx) out.transaction = transactionLinks(tx, base);
  }
  return out as unknown as HorizonPaymentRecord;
}

function pageHref(base: string, account: string, p: PageParams, cursor: string, order: string): string {
  const extra = `${p.includeFailed ? '&include_failed=true' : ''}${p.join ? '&join=transactions' : ''}`;
  return `${base}/accounts/${account}/payments?cursor=${cursor}&limit=${p.limit}&order=${order}${extra}`;
}

function sendPage(req: Request, res: Response, ledger: SandboxLedger, account: string, p: PageParams): void {
  const base = baseUrl(req);
  const records = ledger.listPayments(toQuery(account, p)).map((r) => render(ledger, r, base, p.join));
  const first = records[0]?.paging_token ?? p.cursor;
  const last = records.at(-1)?.paging_token ?? p.cursor;
  const reverse = p.order === 'asc' ? 'desc' : 'asc';
  sendHal(res, {
    _links: {
      self: { href: pageHref(base, account, p, p.cursor, p.order) },
      next: { href: pageHref(base, account, p, last, p.order) },
      prev: { href: pageHref(base, account, p, first, reverse) },
    },
    _embedded: { records },
  });
}

function stream(req: Request, res: Response, ledger: SandboxLedger, account: string, p: PageParams): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'Access-Control-Allow-Origin': '*',
  });
  res.write('retry: 1000\nevent: open\ndata: "hello"\n\n');
  const base = baseUrl(req);
  let cursor = p.cursor;
  // Re-reading from the last sent token on every wake-up means nothing is skipped or repeated.
  const flush = () => {
    for (;;) {
      const batch = ledger.listPayments(toQuery(account, { ...p, cursor, limit: 200, order: 'asc' }));
      for (const r of batch) {
        res.write(`id: ${r.paging_token}\ndata: ${JSON.stringify(render(ledger, r, base, p.join))}\n\n`);
        cursor = r.paging_token;
      }
      if (batch.length < 200) return;
    }
  };
  const onRecords = (records: HorizonPaymentRecord[]) => {
    if (records.some((r) => participants(r).includes(account))) flush();
  };
  flush();
  ledger.events.on('records', onRecords);
  res.on('close', () => ledger.events.off('records', onRecords));
}

export function accountPayments(ledger: SandboxLedger) {
  return (req: Request, res: Response) => {
    const p = parseParams(req, ledger);
    if ('field' in p) return badRequest(res, p.field, 'unparseable value');
    const account = String(req.params.id);
    if ((req.get('Accept') ?? '').includes('text/event-stream')) {
      return stream(req, res, ledger, account, p);
    }
    sendPage(req, res, ledger, account, p);
  };
}
