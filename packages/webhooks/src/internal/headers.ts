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
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    if (typeof value === 'string') values.push(value);
    else values.push(...value);
  }
  return values.length === 0 ? undefined : values.join(', ');
}
