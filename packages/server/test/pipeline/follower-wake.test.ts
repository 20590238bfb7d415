/**
 * The ledger follower's schedule against its wakes (a unit test: the race needs a read held open
 * while a ledger closes, which no real source can be made to do on cue). A wake that comes while
 * a read is under way, after the source answered, must not be overwritten by the schedule that
 * read sets: the ledger it announces would wait a whole idle period (the sandbox's reads are
 * woken by its closes, and otherwise come FUNDKIT_BACKFILL_INTERVAL_MS apart).
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { LedgerFollower, type FollowerDeps } from '../../src/pipeline/follower.js';
import type { LedgerRead } from '../../src/stellar/index.js';

function heldNetwork() {
  let release: ((read: LedgerRead) => void) | null = null;
  const network = {
    latestLedger: async () => 100,
    readLedgers: () => new Promise<LedgerRead>((resolve) => { release = resolve; }),
  };
  return { network, answer: (read: LedgerRead) => release!(read), reading: () => release !== null };
}

function follower(network: unknown): LedgerFollower {
  let cursor = 100;
  const deps = {
    network, networkName: 'sandbox', logger: pino({ level: 'silent' }), handle: async () => true,
    cursors: { get: async () => cursor, init: async (_: string, c: number) => (cursor = c), advance: async (_: string, c: number) => { cursor = c; } },
    watch: { watchedAmong: async () => new Set<string>(), active: async () => [] },
    // the sandbox's settings: no ledger interval (its closes wake the follower), a long idle read
    ledgerMs: 0, idleMs: 60_000,
  } as unknown as FollowerDeps;
  return new LedgerFollower(deps);
}

describe('a wake while the follower reads', () => {
  it('leaves the follower due at once after that read, not an idle period later', async () => {
    const held = heldNetwork();
    const f = follower(held.network);
    const running = f.run();
    await expect.poll(held.reading).toBe(true);
    // ledger 101's read is answered; ledger 102 closes as that answer comes in
    held.answer({ through: 101, records: [], latest: 101, latestClosedAtMs: null });
    f.wake();
    await running;
    expect(f.due()).toBe(true);
  });

  it('without a wake, is next due an idle period later (the schedule stands)', async () => {
    const held = heldNetwork();
    const f = follower(held.network);
    const running = f.run();
    await expect.poll(held.reading).toBe(true);
    held.answer({ through: 101, records: [], latest: 101, latestClosedAtMs: null });
    await running;
    expect(f.due()).toBe(false);
    expect(f.due(Date.now() + 60_000)).toBe(true);
  });
});
