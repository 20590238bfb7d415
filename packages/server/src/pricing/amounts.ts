/** Exact arithmetic for quotes: stroops in, stroops out, rounding always against the platform's risk. */
import { AmountError, STROOPS_PER_UNIT, toStroops } from '../lib/money.js';

export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** What the payer sends so that a price `bps` worse still covers `expected` (rounded up). */
export function withSlippage(expected: bigint, bps: number): bigint {
  return ceilDiv(expected * 10_000n, BigInt(10_000 - bps));
}

/** Destination units per source unit, as a 7-digit decimal string (rounded down). */
export function rateDecimal(destination: bigint, source: bigint): string {
  if (source === 0n) return '0.0000000';
  const scaled = (destination * STROOPS_PER_UNIT) / source;
  return `${scaled / STROOPS_PER_UNIT}.${(scaled % STROOPS_PER_UNIT).toString().padStart(7, '0')}`;
}

/**
 * A JSON number (simple quote `amount`) to stroops, exactly. The number's shortest round-trip
 * form, String(n), is the decimal the client meant; an exponent form is expanded digit by digit
 * (never through float arithmetic) and rejected when it carries more than 7 fraction digits.
 */
export function numberToStroops(n: number): bigint {
  if (!Number.isFinite(n) || n <= 0) throw new AmountError('must be a positive number');
  return toStroops(expandExponent(String(n)));
}

function expandExponent(text: string): string {
  const m = /^(\d+)(?:\.(\d+))?e([+-]\d+)$/i.exec(text);
  if (!m) return text;
  const digits = `${m[1]}${m[2] ?? ''}`;
  const point = m[1]!.length + Number(m[3]);
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`.replace(/0+$/, '');
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}
