/**
 * Request headers as any runtime hands them over: a Fetch `Headers`, or a plain object such
 * as Node's `req.headers` (names in any case, values a string or an array of strings).
 */
export type WebhookHeaders =
  | Headers
  | { readonly [name: string]: string | readonly string[] | undefined };

function isFetchHeaders(headers: WebhookHeaders): headers is Headers {
  return typeof (headers as Headers).get === 'function';
}

/** Header names prepared for {@link readHeaders}: as usually written, in lower case, and by length. */
export interface HeaderNames {
  readonly written: readonly string[];
  readonly lower: readonly string[];
  /** The index of the name of each length; one name per length, so a key needs one lookup. */
  readonly byLength: ReadonlyArray<number | undefined>;
}

export function headerNames(written: readonly string[]): HeaderNames {
  const lower = written.map((name) => name.toLowerCase());
  const byLength: Array<number | undefined> = [];
  lower.forEach((name, n) => {
    if (byLength[name.length] !== undefined) throw new Error(`header names of one length: ${name}`);
    byLength[name.length] = n;
  });
  return { written, lower, byLength };
}

/**
 * The values of several headers, looked up case-insensitively, in one pass over a plain object's
 * keys. Repeated header lines are joined with ", " (RFC 9110 §5.3), exactly as Fetch and Node do it,
 * so callers parse one list.
 */
export function readHeaders(headers: WebhookHeaders, names: HeaderNames): Array<string | undefined> {
  const values: Array<string | undefined> = names.lower.map(() => undefined);
  if (isFetchHeaders(headers)) {
    for (let n = 0; n < values.length; n++) values[n] = headers.get(names.lower[n]!) ?? undefined;
    return values;
  }
  for (const key of Object.keys(headers)) {
    const n = names.byLength[key.length];
    // Lower-casing never changes the length of a name that lower-cases to ASCII, so keys of other
    // lengths are skipped unread, and the usual spellings without allocating a lower-case copy.
    if (n === undefined || (key !== names.written[n] && key !== names.lower[n] && key.toLowerCase() !== names.lower[n])) continue;
    const value = headers[key];
    if (typeof value === 'string') values[n] = values[n] === undefined ? value : `${values[n]}, ${value}`;
    else if (value !== undefined) for (const line of value) values[n] = values[n] === undefined ? line : `${values[n]}, ${line}`;
  }
  return values;
}
