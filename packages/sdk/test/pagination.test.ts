import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { NotFoundError, Page } from '../src/index.js';
import { BASE, client, useMsw } from './helpers.js';

const server = useMsw();

/** 7 intents served 3 per page; records the query of every request. */
function sevenIntents() {
  const ids = Array.from({ length: 7 }, (_, i) => `fi_${7 - i}`);
  const queries: Record<string, string>[] = [];
  server.use(http.get(`${BASE}/v1/funding-intents`, ({ request }) => {
    const query = Object.fromEntries(new URL(request.url).searchParams);
    queries.push(query);
    const start = query.cursor ? ids.indexOf(query.cursor) + 1 : 0;
    const data = ids.slice(start, start + 3).map((id) => ({ id, object: 'funding_intent', status: query.status ?? 'CREATED' }));
    const last = start + 3 >= ids.length;
    return HttpResponse.json({ object: 'list', data, next_cursor: last ? null : data.at(-1)!.id });
  }));
  return { ids, queries };
}

describe('pagination', () => {
  it('await gives the first page', async () => {
    sevenIntents();
    const page = await client().fundingIntents.list({ limit: 3 });
    expect(page).toBeInstanceOf(Page);
    expect(page.data.map((i) => i.id)).toEqual(['fi_7', 'fi_6', 'fi_5']);
    expect(page.next_cursor).toBe('fi_5');
    expect(page.hasNextPage()).toBe(true);
    const next = await page.getNextPage();
    expect(next.data.map((i) => i.id)).toEqual(['fi_4', 'fi_3', 'fi_2']);
  });

  it('for await walks every item across pages, keeping the filters', async () => {
    const { ids, queries } = sevenIntents();
    const seen: string[] = [];
    for await (const intent of client().fundingIntents.list({ status: 'AWAITING_PAYMENT', limit: 3 })) {
      expect(intent.status).toBe('AWAITING_PAYMENT');
      seen.push(intent.id);
    }
    expect(seen).toEqual(ids);
    expect(queries).toEqual([
      { status: 'AWAITING_PAYMENT', limit: '3' },
      { status: 'AWAITING_PAYMENT', limit: '3', cursor: 'fi_5' },
      { status: 'AWAITING_PAYMENT', limit: '3', cursor: 'fi_2' },
    ]);
  });

  it('.pages() yields page by page', async () => {
    sevenIntents();
    const sizes: number[] = [];
    for await (const page of client().fundingIntents.list({ limit: 3 }).pages()) sizes.push(page.data.length);
    expect(sizes).toEqual([3, 3, 1]);
  });

  it('.toArray({ limit }) stops at the cap without fetching further pages', async () => {
    const { queries } = sevenIntents();
    const items = await client().fundingIntents.list({ limit: 3 }).toArray({ limit: 4 });
    expect(items.map((i) => i.id)).toEqual(['fi_7', 'fi_6', 'fi_5', 'fi_4']);
    expect(queries).toHaveLength(2);
    expect(await client().fundingIntents.list({ limit: 3 }).toArray({ limit: 100 })).toHaveLength(7);
  });

  it('withResponse works on a list and errors reject the iteration', async () => {
    sevenIntents();
    const { data, requestId } = await client().fundingIntents.list().withResponse();
    expect(data.data).toHaveLength(3);
    expect(requestId).toBeNull();
    server.use(http.get(`${BASE}/v1/funding-intents/fi_x/payments`, () => HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'no', requestId: 'r' } }, { status: 404 })));
    const iterate = async () => { for await (const _ of client().fundingIntents.payments('fi_x')) void _; };
    await expect(iterate()).rejects.toBeInstanceOf(NotFoundError);
  });
});
