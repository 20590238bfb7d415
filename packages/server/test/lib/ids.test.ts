import { describe, expect, it } from 'vitest';
import { newId, ulid } from '../../src/lib/ids.js';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const randomPart = (id: string) => [...id.slice(-16)].reduce((n, c) => n * 32n + BigInt(ALPHABET.indexOf(c)), 0n);

describe('ids', () => {
  it('ids minted in one millisecond stay in order but never reveal their neighbours', () => {
    const now = Date.now() + 60_000; // a millisecond no other id of this process has used
    const ids = Array.from({ length: 4000 }, () => ulid(now));
    expect([...ids].sort()).toEqual(ids);
    const sameMs = ids.filter((id) => id.slice(0, 10) === ids[0]!.slice(0, 10));
    expect(sameMs.length).toBeGreaterThan(1000);
    const steps = sameMs.slice(1).map((id, i) => randomPart(id) - randomPart(sameMs[i]!));
    // a step of 1 (plain monotonic ULID) makes the next id the last one plus one; a random step
    // of up to 2^64 is below 2^40 once in 2^24 draws
    for (const step of steps) expect(step).toBeGreaterThanOrEqual(2n ** 40n);
    expect(new Set(steps).size).toBe(steps.length);
    // and they differ in more than the last characters
    const sharedTail = sameMs.slice(1).filter((id, i) => id.slice(0, -8) === sameMs[i]!.slice(0, -8));
    expect(sharedTail).toEqual([]);
  });

  it('a millisecond that runs out of room for steps borrows the next one, still in order', () => {
    const now = Date.now() + 120_000;
    const ids = Array.from({ length: 70_000 }, () => ulid(now));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('prefixed ids are at most 64 characters', () => {
    expect(newId('funding_intent')).toMatch(/^fi_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(newId('server_instance').length).toBeLessThanOrEqual(64);
  });
});
