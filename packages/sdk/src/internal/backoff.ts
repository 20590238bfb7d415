/** Longest wait the SDK accepts from a server hint; longer hints are cut to this. */
export const MAX_RETRY_AFTER_MS = 60_000;
const INITIAL_DELAY_MS = 500;
export const MAX_BACKOFF_MS = 8_000;

/**
 * Reads `Retry-After` as delta-seconds or an HTTP date (RFC 9110 §10.2.3). Returns milliseconds,
 * capped at 60 s, or undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value == null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  const ms = /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - now;
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/**
 * Exponential backoff, 0.5 s doubling to 8 s, minus up to 25 % jitter so that many clients
 * failing together do not come back in lockstep.
 */
export function backoffDelay(retryIndex: number, random: () => number = Math.random): number {
  const base = Math.min(INITIAL_DELAY_MS * 2 ** retryIndex, MAX_BACKOFF_MS);
  return base * (1 - 0.25 * random());
}
