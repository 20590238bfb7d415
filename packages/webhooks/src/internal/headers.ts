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

/**
 * The value of one header, looked up case-insensitively. Repeated header lines are joined
 * with ", " (RFC 9110 §5.3), exactly as Fetch and Node do it, so callers parse one list.
 */
export function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  if (isFetchHeaders(headers)) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  let joined: string | undefined;
  for (const key of Object.keys(headers)) {
    // Lower-casing never changes the length of a name that lower-cases to ASCII, so most keys are
    // skipped without allocating a lower-case copy (this ran three times per verification).
    if (key.length !== wanted.length || key.toLowerCase() !== wanted) continue;
    const value = headers[key];
    if (value === undefined) continue;
    for (const line of typeof value === 'string' ? [value] : value) joined = joined === undefined ? line : `${joined}, ${line}`;
  }
  return joined;
}
