/**
 * The process's status feed: however many streams are open, one read a tick; each stream hears of
 * its own intent only, and only when it moved.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StatusFeed, type StatusChange } from '../src/resources/funding-intents/status-feed.js';

let markers: Map<string, string>;
let reads: string[][];
let feed: StatusFeed;
let failures: number;
let errors: string[];

beforeEach(() => {
  vi.useFakeTimers();
  markers = new Map(Array.from({ length: 1_500 }, (_, i) => [`fi_${i}`, 'AWAITING_PAYMENT|0']));
  reads = [];
  failures = 0;
  errors = [];
  feed = new StatusFeed({
    markers: async (ids) => {
      if (failures > 0 && failures--) throw new Error('connection lost');
      reads.push(ids);
      return new Map(ids.flatMap((id) => (markers.has(id) ? [[id, markers.get(id)!] as const] : [])));
    },
    onError: (error) => errors.push((error as Error).message),
    pollMs: 500,
  });
});
afterEach(() => {
  feed.close();
  vi.useRealTimers();
});

async function followAll(count: number) {
  const heard = new Map<string, StatusChange[]>();
  const stops: Array<() => void> = [];
  for (let i = 0; i < count; i++) {
    const id = `fi_${i}`;
    heard.set(id, []);
    stops.push((await feed.follow(id, (change) => heard.get(id)!.push(change)))!);
  }
  return { heard, stops };
}

describe('StatusFeed', () => {
  it('reads every followed intent in one query a tick (chunks of 1,000 ids), not one per stream', async () => {
    await followAll(1_500);
    reads = [];
    await vi.advanceTimersByTimeAsync(2_000);
    // 4 ticks, each one read of 1,000 ids and one of 500
    expect(reads.map((ids) => ids.length)).toEqual([1_000, 500, 1_000, 500, 1_000, 500, 1_000, 500]);
  });

  it('tells the streams of an intent that moved, once; an intent gone ends its streams', async () => {
    const { heard } = await followAll(3);
    markers.set('fi_1', 'CREDITED|25');
    markers.delete('fi_2');
    await vi.advanceTimersByTimeAsync(1_500);
    expect(Object.fromEntries(heard)).toEqual({ fi_0: [], fi_1: ['moved'], fi_2: ['gone'] });
  });

  it('stops reading when no stream is left, and answers null for an intent that does not exist', async () => {
    const { stops } = await followAll(2);
    for (const stop of stops) stop();
    reads = [];
    await vi.advanceTimersByTimeAsync(2_000);
    expect(reads).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    expect(await feed.follow('fi_missing', () => undefined)).toBeNull();
  });

  it('tells every stream the server is closing, and follows nothing after', async () => {
    const { heard } = await followAll(2);
    reads = [];
    feed.close();
    expect([...heard.values()]).toEqual([['closing'], ['closing']]);
    expect(await feed.follow('fi_0', () => undefined)).toBeNull();
    // not even a read for it: the database is about to close
    expect(reads).toEqual([]);
  });

  it('keeps the streams open when a read fails, and reads again at the next tick', async () => {
    const { heard } = await followAll(1);
    failures = 1;
    markers.set('fi_0', 'CREDITED|25');
    await vi.advanceTimersByTimeAsync(500);
    expect(errors).toEqual(['connection lost']);
    expect(heard.get('fi_0')).toEqual([]);
    await vi.advanceTimersByTimeAsync(500);
    expect(heard.get('fi_0')).toEqual(['moved']);
  });
});
