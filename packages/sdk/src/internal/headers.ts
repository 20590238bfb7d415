/** Lower-cased plain object of any HeadersInit, so merging is order-independent of case. */
export function toHeaderRecord(init: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!init) return out;
  new Headers(init).forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

/** Later records win; keys compared case-insensitively. */
export function mergeHeaders(...records: (HeadersInit | undefined)[]): Record<string, string> {
  return Object.assign({}, ...records.map(toHeaderRecord)) as Record<string, string>;
}
