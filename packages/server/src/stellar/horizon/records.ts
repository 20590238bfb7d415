/**
 * The SDK's CallBuilder turns every `_links` entry of a record into a function and moves a field
 * of the same name aside to `<name>_attr` (so a joined `transaction`, and the transaction's
 * `ledger`, become functions). The pipeline consumes plain Horizon JSON, exactly as the sandbox
 * serves it, so this undoes that.
 */
import type { HorizonPaymentRecord } from '../horizon-types.js';

type Json = Record<string, unknown>;

function restore(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const source = value as Json;
  const out: Json = {};
  for (const [key, field] of Object.entries(source)) {
    if (key.endsWith('_attr') && typeof source[key.slice(0, -5)] === 'function') continue;
    if (typeof field === 'function') {
      const attr = `${key}_attr`;
      if (attr in source) out[key] = restore(source[attr]);
      continue;
    }
    out[key] = key === '_links' ? field : restore(field);
  }
  return out;
}

export function plainRecord(record: unknown): HorizonPaymentRecord {
  return restore(record) as HorizonPaymentRecord;
}

/** Paging tokens are int64 decimals; compare them as numbers, never as strings. */
export function tokenAfter(token: string, cursor: string): boolean {
  return cursor === '' || BigInt(token) > BigInt(cursor);
}
