/**
 * watchPayments against an SSE Horizon served by msw (the SDK's eventsource requests are
 * intercepted): drops, silence, failing handlers and crashes never lose or repeat a record.
 */
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHorizonNetwork, type WatchTiming } from '../../src/stellar/horizon/index.js';
import type { HorizonPaymentRecord } from '../../src/stellar/index.js';
import { ACCOUNT, failedRecord, RECORDS } from './data.js';
import { fixtureText, hal, HORIZON, MockHorizon } from './horizon-mock.js';

const mock = new MockHorizon();
const stops: Array<() => void> = [];

beforeAll(() => mock.server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => mock.reset());
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  mock.server.resetHandlers();
});
afterAll(() => mock.server.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(5);
  }
}

const tokens = (records: HorizonPaymentRecord[]) => records.map((r) => r.paging_token);

interface Run {
  delivered: HorizonPaymentRecord[];
  saved: string[];
  restarts: Array<{ reason: string; delay: number }>;
  stop: () => void;
}

function watch(cursor: string, onRecord: (r: HorizonPaymentRecord) => unknown = () => undefined, timing: Partial<WatchTiming> = {}): Run {
  const net = createHorizonNetwork({ kind: 'testnet', horizonUrl: HORIZON, watch: { silenceMs: 5000, backoffBaseMs: 20, backoffCapMs: 200, ...timing } });
  const run: Run = { delivered: [], saved: [], restarts: [], stop: () => undefined };
  run.stop = net.watchPayments(ACCOUNT, cursor, async (r) => {
    const out = await onRecord(r);
    if (out !== false) run.delivered.push(r);
    return out;
  }, {
    saveCursor: (token) => run.saved.push(token),
    onRestart: (reason, delay) => run.restarts.push({ reason, delay }),
  });
  stops.push(run.stop);
  return run;
}

describe('streaming', () => {
  it('takes the recorded stream framing byte for byte: records in order, the failed transaction skipped but passed by the cursor', async () => {
    const sse = fixtureText('payments-stream.sse');
    mock.server.use(http.get(`${HORIZON}/accounts/:id/payments`, ({ request }) => (new URL(request.url).searchParams.has('X-Client-Name')
      ? new HttpResponse(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode(sse)) }), { headers: { 'content-type': 'text/event-stream; charset=utf-8' } })
      : hal({ _links: {}, _embedded: { records: [] } }))));
    const events = sse.split('\n\n').filter((e) => e.startsWith('id: '));
    const sent = events.map((e) => JSON.parse(e.split('\ndata: ')[1]!) as HorizonPaymentRecord);
    const run = watch('');
    await until(() => run.saved.length === 4);
    expect(run.saved).toEqual(events.map((e) => e.slice(4, e.indexOf('\n'))));
    expect(run.delivered).toEqual(sent.filter((r) => r.transaction_successful));
    expect(run.delivered).toHaveLength(3);
  });

  it('a stream that drops after 2 records: restarts, backfills from the last processed cursor, delivers the rest exactly once', async () => {
    mock.scripts = [{ send: 2, end: 'drop', dropAfterMs: 50 }];
    const savedAtBackfill: Array<{ cursor: string | null; saved: string | undefined }> = [];
    const run = watch('');
    mock.onPage = (cursor) => savedAtBackfill.push({ cursor, saved: run.saved.at(-1) });
    await until(() => mock.streams.length === 1);
    mock.publish(...RECORDS.slice(0, 5));
    await until(() => run.delivered.length === 5);
    await until(() => mock.streams.length === 2);
    mock.publish(RECORDS[5]!);
    await until(() => run.delivered.length === 6);
    await sleep(100);
    expect(tokens(run.delivered)).toEqual(tokens(RECORDS.slice(0, 6)));
    expect(run.restarts).toHaveLength(1);
    expect(run.restarts[0]!.reason).toMatch(/^stream/);
    // the first page after the drop asks from exactly the last processed record
    const afterDrop = savedAtBackfill[1]!;
    expect(afterDrop).toEqual({ cursor: RECORDS[1]!.paging_token, saved: RECORDS[1]!.paging_token });
    // the new stream resumes from the last record the backfill processed, never "now"
    expect(mock.streams[1]!.cursor).toBe(RECORDS[4]!.paging_token);
    expect(mock.streams[0]!.url.searchParams.get('join')).toBe('transactions');
  });

  it('a silent stream (opens, never sends) is restarted after the silence timeout and the backfill finds the payment', async () => {
    mock.scripts = [{ send: 0, end: 'hold' }];
    const run = watch('', undefined, { silenceMs: 300 });
    await until(() => mock.streams.length === 1);
    const opened = mock.streams[0]!.at;
    mock.publish(RECORDS[0]!);
    await until(() => run.delivered.length === 1);
    expect(Date.now() - opened).toBeGreaterThanOrEqual(250);
    expect(run.restarts[0]!.reason).toMatch(/silent for 300 ms/);
    expect(mock.pages.at(-1)!.cursor).toBe(RECORDS[0]!.paging_token);
    expect(tokens(run.delivered)).toEqual([RECORDS[0]!.paging_token]);
  });

  it('restarts with exponential backoff, capped', async () => {
    mock.scripts = Array.from({ length: 6 }, () => ({ send: 0, end: 'drop' as const }));
    const run = watch('', undefined, { backoffBaseMs: 10, backoffCapMs: 40 });
    await until(() => run.restarts.length >= 5);
    expect(run.restarts.slice(0, 5).map((r) => r.delay)).toEqual([10, 20, 40, 40, 40]);
  });
});

describe('cursor only after processing', () => {
  it('a handler that throws gets the same record again after the restart; nothing is skipped or repeated', async () => {
    mock.published = RECORDS.slice(0, 3);
    let thrown = 0;
    const run = watch('', (r) => {
      if (r.paging_token === RECORDS[1]!.paging_token && thrown++ === 0) throw new Error('database is locked');
    });
    await until(() => run.delivered.length === 3);
    expect(tokens(run.delivered)).toEqual(tokens(RECORDS.slice(0, 3)));
    expect(run.saved).toEqual(tokens(RECORDS.slice(0, 3)));
    expect(run.restarts[0]!.reason).toMatch(/database is locked/);
    expect(mock.pages.map((p) => p.cursor)).toContain(RECORDS[0]!.paging_token);
  });

  it('a handler answering false (the observer: intent not recorded yet) is retried the same way', async () => {
    mock.published = RECORDS.slice(0, 2);
    let refused = 0;
    const run = watch('', (r) => !(r.paging_token === RECORDS[0]!.paging_token && refused++ < 2));
    await until(() => run.delivered.length === 2);
    expect(tokens(run.delivered)).toEqual(tokens(RECORDS.slice(0, 2)));
    expect(run.restarts.map((r) => r.delay)).toEqual([20, 40]);
  });

  it('a crash while a record is being processed: a new watcher from the persisted cursor delivers it again', async () => {
    mock.published = RECORDS.slice(0, 3);
    let reached = false;
    const first = watch('', (r) => {
      if (r.paging_token !== RECORDS[1]!.paging_token) return;
      reached = true;
      return new Promise(() => undefined); // the process dies before this resolves
    });
    await until(() => reached);
    first.stop();
    expect(first.saved).toEqual([RECORDS[0]!.paging_token]);
    mock.requests.length = 0;
    const second = watch(first.saved.at(-1)!);
    await until(() => second.delivered.length === 2);
    expect(tokens(second.delivered)).toEqual(tokens(RECORDS.slice(1, 3)));
    expect(mock.pages[0]!.cursor).toBe(RECORDS[0]!.paging_token);
  });

  it('records at or before the starting cursor are never delivered; failed transactions are skipped like the sandbox does', async () => {
    const failed = failedRecord();
    mock.published = [...RECORDS.slice(0, 4), failed, ...RECORDS.slice(4, 6)];
    const run = watch(RECORDS[1]!.paging_token);
    await until(() => run.saved.length === 5);
    expect(tokens(run.delivered)).toEqual(tokens([RECORDS[2]!, RECORDS[3]!, RECORDS[4]!, RECORDS[5]!]));
    expect(run.saved).toContain(failed.paging_token);
  });

  it('stop() ends the stream and every timer: no more requests', async () => {
    mock.scripts = [{ send: 0, end: 'drop' }];
    const run = watch('');
    await until(() => run.restarts.length === 1);
    run.stop();
    const count = mock.requests.length;
    await sleep(150);
    expect(mock.requests.length).toBe(count);
  });
});
