import { randomIdempotencyKey } from '../internal/ids.js';
import type { RequestOptions } from './options.js';

/**
 * The Idempotency-Key of one call: the caller's if given, else a fresh UUID. It is computed once
 * per call and travels in the request the retry loop resends, so every retry carries it.
 */
export function idempotencyKey(options: RequestOptions | undefined): string {
  return options?.idempotencyKey ?? randomIdempotencyKey();
}
