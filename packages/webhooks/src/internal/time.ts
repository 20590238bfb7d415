/** Above this a "seconds" value is almost certainly milliseconds (year 5138 in seconds). */
const LARGEST_PLAUSIBLE_UNIX_SECONDS = 1e11;

/** A moment as the wire carries it: whole Unix seconds. Numbers are seconds, never milliseconds. */
export type UnixSecondsOrDate = number | Date;

export function toUnixSeconds(value: UnixSecondsOrDate, what: string): number {
  const seconds = value instanceof Date ? value.getTime() / 1000 : value;
  if (!Number.isFinite(seconds)) throw new TypeError(`${what} must be a Date or Unix seconds`);
  if (Math.abs(seconds) > LARGEST_PLAUSIBLE_UNIX_SECONDS) {
    throw new RangeError(
      `${what} looks like milliseconds (${seconds}); pass Unix seconds or a Date`,
    );
  }
  return Math.floor(seconds);
}

export function currentUnixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
