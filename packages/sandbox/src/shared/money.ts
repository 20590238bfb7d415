/**
 * Money is exact: decimal strings on the wire, BigInt stroops inside (1 unit = 10^7 stroops,
 * Stellar's precision). Never a float, except where INTERFACE.md types an amount as a number
 * (simple quote, webhook payload): `toNumber` is only for those output fields.
 */
export const STROOPS_PER_UNIT = 10_000_000n;
/** Largest Stellar amount: (2^63 - 1) stroops = 922337203685.4775807. */
export const MAX_STROOPS = 9_223_372_036_854_775_807n;

const DECIMAL = /^(0|[1-9]\d{0,11})(\.\d{1,7})?$/;

export class AmountError extends Error {}

/** Parses a positive decimal string (at most 7 fraction digits, at most MAX) into stroops. */
export function toStroops(amount: string, { allowZero = false } = {}): bigint {
  if (typeof amount !== 'string' || !DECIMAL.test(amount)) {
    throw new AmountError('must be a decimal string with at most 7 fraction digits, e.g. "25.00"');
  }
  const [whole, frac = ''] = amount.split('.') as [string, string?];
  const stroops = BigInt(whole) * STROOPS_PER_UNIT + BigInt((frac ?? '').padEnd(7, '0') || '0');
  if (stroops > MAX_STROOPS) throw new AmountError('must be at most 922337203685.4775807');
  if (stroops === 0n && !allowZero) throw new AmountError('must be greater than zero');
  return stroops;
}

/** Formats stroops as a decimal string with exactly 7 fraction digits, as Horizon does. */
export function fromStroops(stroops: bigint): string {
  const negative = stroops < 0n;
  const abs = negative ? -stroops : stroops;
  const whole = abs / STROOPS_PER_UNIT;
  const frac = (abs % STROOPS_PER_UNIT).toString().padStart(7, '0');
  return `${negative ? '-' : ''}${whole}.${frac}`;
}

/** Trims trailing zeros for display ("25.0000000" -> "25", "0.5000000" -> "0.5"). */
export function trimAmount(decimal: string): string {
  return decimal.includes('.') ? decimal.replace(/0+$/, '').replace(/\.$/, '') : decimal;
}

/** Only for fields that INTERFACE.md types as a JSON number; the exact string travels beside it. */
export function toNumber(stroops: bigint): number {
  return Number(fromStroops(stroops));
}

export function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

export function maxBig(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

/** a * bps / 10_000, rounded down (in the payer's favour when computing minimums). */
export function applyBps(stroops: bigint, bps: number): bigint {
  return (stroops * BigInt(10_000 - bps)) / 10_000n;
}
