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
 * The values of several headers, looked up case-insensitively (`lowerNames` in lower case), in one
 * pass over a plain object's keys. Repeated header lines are joined with ", " (RFC 9110 §5.3),
 * exactly as Fetch and Node do it, so callers parse one list.
 */
export function readHeaders(headers: WebhookHeaders, lowerNames: readonly string[]): Array<string | undefined> {
  const values: Array<string | undefined> = lowerNames.map(() => undefined);
  if (isFetchHeaders(headers)) {
    for (let n = 0; n < lowerNames.length; n++) values[n] = headers.get(lowerNames[n]!) ?? undefined;
    return values;
  }
  for (const key of Object.keys(headers)) {
    for (let n = 0; n < lowerNames.length; n++) {
      const wanted = lowerNames[n]!;
      // Lower-casing never changes the length of a name that lower-cases to ASCII, so most keys are
      // skipped without allocating a lower-case copy.
      if (key.length !== wanted.length || (key !== wanted && key.toLowerCase() !== wanted)) continue;
      const value = headers[key];
      if (typeof value === 'string') values[n] = values[n] === undefined ? value : `${values[n]}, ${value}`;
      else if (value !== undefined) for (const line of value) values[n] = values[n] === undefined ? line : `${values[n]}, ${line}`;
      break;
    }
  }
  return values;
}
