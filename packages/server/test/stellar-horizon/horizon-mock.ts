/**
 * A recorded-fixture Horizon behind msw: REST answers with the fixture bodies, and an SSE
 * payments endpoint whose connections follow a per-test script (send N records, then drop,
 * hold open, or stay silent), framed exactly like fixtures/payments-stream.sse.
 */
import { readFileSync } from 'node:fs';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { HorizonPaymentRecord } from '../../src/stellar/index.js';

export const HORIZON = 'http://horizon.test';
const dir = new URL('./fixtures/', import.meta.url);

export const fixtureText = (name: string): string => readFileSync(new URL(name, dir), 'utf8');
export const fixture = <T = any>(name: string): T => JSON.parse(fixtureText(name)) as T;

export const hal = (body: string | object, status = 200) =>
  new HttpResponse(typeof body === 'string' ? body : JSON.stringify(body, null, 2), {
    status, headers: { 'content-type': 'application/hal+json; charset=utf-8' },
  });

/** A problem fixture, answered with its own `status`. */
export const problem = (name: string) =>
  new HttpResponse(fixtureText(name), { status: fixture(name).status, headers: { 'content-type': 'application/problem+json; charset=utf-8' } });

export const PREAMBLE = 'retry: 1000\nevent: open\ndata: "hello"\n\n';

/** Go's json.Marshal escapes &, < and > (as the stream fixture shows). */
export const sseEvent = (r: HorizonPaymentRecord) =>
  `id: ${r.paging_token}\ndata: ${JSON.stringify(r).replace(/&/g, '\\u0026').replace(/</g, '\\u003c').replace(/>/g, '\\u003e')}\n\n`;

/** What one SSE connection does: send up to `send` records after its cursor, then `end`. */
export interface StreamScript {
  send: number;
  end: 'drop' | 'hold';
  /** ms to wait before dropping (lets the client process what it got) */
  dropAfterMs?: number;
}

export interface Request {
  kind: 'page' | 'stream';
  cursor: string | null;
  url: URL;
  /** when the request arrived (Date.now()) */
  at: number;
}

export class MockHorizon {
  readonly requests: Request[] = [];
  /** Records Horizon has ingested for the account (ascending). */
  published: HorizonPaymentRecord[] = [];
  scripts: StreamScript[] = [];
  /** Called when a page request arrives (before answering): snapshot state there. */
  onPage: (cursor: string | null) => void = () => undefined;
  private readonly live = new Set<(r: HorizonPaymentRecord) => void>();
  readonly server = setupServer(
    http.get(`${HORIZON}/accounts/:id/payments`, ({ request }) => this.payments(request)),
  );

  reset(): void {
    this.requests.length = 0;
    this.published = [];
    this.scripts = [];
    this.onPage = () => undefined;
    this.live.clear();
  }

  publish(...records: HorizonPaymentRecord[]): void {
    this.published.push(...records);
    for (const push of this.live) for (const r of records) push(r);
  }

  get streams(): Request[] {
    return this.requests.filter((r) => r.kind === 'stream');
  }

  get pages(): Request[] {
    return this.requests.filter((r) => r.kind === 'page');
  }

  private after(cursor: string | null): HorizonPaymentRecord[] {
    return this.published.filter((r) => !cursor || BigInt(r.paging_token) > BigInt(cursor));
  }

  private payments(request: globalThis.Request): Response {
    const url = new URL(request.url);
    const cursor = url.searchParams.get('cursor');
    // eventsource@2 passes its headers beside a legacy url.parse() object, which msw's
    // interceptor drops (Accept: text/event-stream is lost); the SDK marks its stream URLs
    // with an X-Client-Name query parameter (plain calls send it as a header), so use that.
    const streaming = (request.headers.get('accept') ?? '').includes('text/event-stream') || url.searchParams.has('X-Client-Name');
    this.requests.push({ kind: streaming ? 'stream' : 'page', cursor, url, at: Date.now() });
    if (streaming) return this.stream(cursor);
    this.onPage(cursor);
    const limit = Number(url.searchParams.get('limit') ?? 10);
    const records = this.after(cursor).slice(0, limit);
    return hal({ _links: { self: { href: url.href } }, _embedded: { records } });
  }

  private stream(cursor: string | null): Response {
    const script = this.scripts.shift() ?? { send: Infinity, end: 'hold' };
    let sent = 0;
    let push: ((r: HorizonPaymentRecord) => void) | null = null;
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        controller.enqueue(encoder.encode(PREAMBLE));
        const dropIfDone = () => {
          if (sent < script.send || script.end !== 'drop') return;
          this.live.delete(push!);
          setTimeout(() => controller.close(), script.dropAfterMs ?? 0);
        };
        push = (r) => {
          if (sent >= script.send) return;
          sent += 1;
          controller.enqueue(encoder.encode(sseEvent(r)));
          dropIfDone();
        };
        this.live.add(push);
        for (const r of this.after(cursor)) push(r);
        if (script.send === 0) dropIfDone();
      },
      cancel: () => {
        if (push) this.live.delete(push);
      },
    });
    return new HttpResponse(body, {
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' },
    });
  }
}
