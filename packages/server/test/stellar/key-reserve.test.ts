import { Keypair } from '@stellar/stellar-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { decryptSecret } from '../../src/lib/crypto.js';
import { KeyReserve, type SealedKey } from '../../src/stellar/key-reserve.js';

const secretsKey = Buffer.alloc(32, 7);
let reserve: KeyReserve | undefined;
afterEach(async () => reserve?.close());

/** Each key's sealed secret opens with the secrets key to the secret of exactly that address. */
function expectWorking(keys: SealedKey[]): void {
  expect(new Set(keys.map((k) => k.address)).size).toBe(keys.length);
  for (const key of keys) expect(Keypair.fromSecret(decryptSecret(secretsKey, key.sealed)).publicKey()).toBe(key.address);
}

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('KeyReserve (deposit keys made ahead, sealed)', () => {
  it('hands out distinct working keys made between requests, refilled when half are gone', async () => {
    reserve = new KeyReserve(secretsKey, { size: 8, threadAfter: 1_000 });
    const first = reserve.take();
    await until(() => reserve!.ready === 8);
    const keys = Array.from({ length: 8 }, () => reserve!.take());
    expect(reserve.ready).toBe(0);
    await until(() => reserve!.ready === 8);
    expect(reserve.threaded).toBe(false);
    expectWorking([first, ...keys]);
  });

  it('makes the keys on a thread of its own once many were handed out', async () => {
    reserve = new KeyReserve(secretsKey, { size: 16, threadAfter: 4 });
    const keys = Array.from({ length: 4 }, () => reserve!.take());
    await until(() => reserve!.ready === 16);
    expect(reserve.threaded).toBe(false);
    keys.push(...Array.from({ length: 16 }, () => reserve!.take()));
    await until(() => reserve!.ready === 16);
    expect(reserve.threaded).toBe(true);
    expectWorking(keys);
    keys.push(...Array.from({ length: 16 }, () => reserve!.take()));
    expectWorking(keys);
  });
});
