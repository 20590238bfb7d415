import { randomBytes, randomFillSync } from 'node:crypto';

/**
 * Prefixed, time-ordered ids (ULID layout: 48-bit ms time + 80 random bits, Crockford base32).
 * Monotonic within a millisecond so ids sort in creation order, which keyset pagination relies on;
 * but an id never reveals its neighbours: within a millisecond each id steps past the last one by
 * a fresh random amount of 1 to 2^64 (not by one, as plain monotonic ULIDs do), so knowing one id
 * leaves 2^64 candidates for the next. The first id of a millisecond starts below 2^79, which
 * leaves room for 2^15 such steps; past that the id borrows the next millisecond.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export const ID_PREFIXES = {
  funding_intent: 'fi',
  quote: 'qt',
  route_execution: 'rex',
  deposit_account: 'da',
  payment: 'pay',
  settlement: 'stl',
  refund: 'rf',
  ledger_entry: 'le',
  webhook_endpoint: 'we',
  event: 'evt',
  webhook_delivery: 'wd',
  application: 'app',
  api_key: 'key',
  checkout_session: 'cst',
  request: 'req',
  account: 'acct',
  request_log: 'rl',
  quote_simple: 'qt',
  deposit_batch: 'dab',
  server_instance: 'srv',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

let lastTime = 0;
let lastRandom: Uint8Array = new Uint8Array(10);

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

function encodeRandom(bytes: Uint8Array): string {
  // 80 bits, 5 at a time from the most significant (no BigInt: this runs for every id)
  let out = '';
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < bytes.length; i++) {
    acc = ((acc << 8) | bytes[i]!) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(acc >> bits) & 31];
    }
  }
  return out;
}

/** bytes (80 bits, big-endian) + a random step in [1, 2^64]; null when it would pass 2^80. */
function stepRandomly(bytes: Uint8Array, step: Uint8Array): Uint8Array | null {
  const next = Uint8Array.from(bytes);
  // the step is the 8 random bytes plus one, added into the low 8 bytes of the 10
  let carry = 1;
  for (let i = 9; i >= 0; i--) {
    const sum = next[i]! + (i >= 2 ? step[i - 2]! : 0) + carry;
    next[i] = sum & 0xff;
    carry = sum >> 8;
  }
  return carry ? null : next;
}

/** Random bytes drawn 10 at a time from one CSPRNG fill of 4 KB (a fill per id cost more than the rest of the id). */
const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let poolOffset = POOL_SIZE;

function random10(): Uint8Array {
  if (poolOffset + 10 > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  poolOffset += 10;
  return Uint8Array.prototype.slice.call(pool, poolOffset - 10, poolOffset);
}

/** The first random part of a millisecond: random, top bit clear (room for 2^15 steps). */
function firstOfMillisecond(): Uint8Array {
  const bytes = random10();
  bytes[0] = bytes[0]! & 0x7f;
  return bytes;
}

export function ulid(now = Date.now()): string {
  const stepped = now <= lastTime ? stepRandomly(lastRandom, random10()) : null;
  if (stepped) {
    lastRandom = stepped;
    now = lastTime;
  } else {
    // a new millisecond, or one whose ids used up the room for steps: borrow the next
    lastTime = now <= lastTime ? lastTime + 1 : now;
    now = lastTime;
    lastRandom = firstOfMillisecond();
  }
  return encodeTime(now) + encodeRandom(lastRandom);
}

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${ulid()}`;
}

/** An opaque random token (for secrets, handoff tokens), base64url. */
export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}
