/** Timestamps are ISO 8601 UTC with milliseconds, everywhere. */
export function isoNow(now: number = Date.now()): string {
  return new Date(now).toISOString();
}

export function isoFromMs(ms: number | null | undefined): string | null {
  return ms == null ? null : new Date(ms).toISOString();
}

/** Parses durations like "1s", "5m", "2h", "1d" into milliseconds; throws on anything else. */
export function parseDuration(text: string): number {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a duration (use a number with a unit: s, m, h or d)`);
  const n = Number(match[1]);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'ms'];
  return n * unit;
}
