import { describe, expect, it } from 'vitest';
import { LoopLoad } from '../../src/lib/loop-load.js';

const spin = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};
const idle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('LoopLoad (is the event loop saturated?)', () => {
  it('says saturated after a span the loop never waited, and not after one it waited through', async () => {
    const load = new LoopLoad();
    await idle(150);
    expect(load.saturated()).toBe(false);
    spin(150);
    expect(load.saturated()).toBe(true);
    // a look within 100 ms of the last one keeps its answer
    expect(load.saturated()).toBe(true);
    await idle(150);
    expect(load.saturated()).toBe(false);
  });
});
