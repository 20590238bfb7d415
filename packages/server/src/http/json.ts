import type { Response } from 'express';

const serialized = new WeakMap<object, Buffer>();

/** `res.json` for a frozen value shared by requests: serialized once, then the same bytes each time. */
export function sendSharedJson(res: Response, value: object): void {
  // a res.json replaced for this response (an Idempotency-Key's record) sees the value
  if (Object.prototype.hasOwnProperty.call(res, 'json')) return void res.json(value);
  let bytes = serialized.get(value);
  if (bytes === undefined) {
    if (!Object.isFrozen(value)) throw new Error('sendSharedJson needs a frozen value (its JSON is cached)');
    bytes = Buffer.from(JSON.stringify(value));
    serialized.set(value, bytes);
  }
  sendJsonBytes(res, bytes);
}

/** What res.json's `set('Content-Type', 'application/json')` writes (express adds the charset). */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Whether `res.send` would only add Content-Length and end with the body: a 200 answer to a GET
 * with no validators that could make it a 304 (`req.fresh`), no ETag to compute, no
 * Transfer-Encoding. HEAD and anything else go through `res.send` itself.
 */
function plainAnswer(res: Response): boolean {
  const { req } = res;
  return req.method === 'GET' && res.statusCode === 200 && req.headers['if-none-match'] === undefined && req.headers['if-modified-since'] === undefined
    && res.getHeader('Transfer-Encoding') === undefined && res.getHeader('ETag') === undefined && typeof res.app.get('etag fn') !== 'function';
}

/** Sends JSON already encoded as UTF-8, with the headers and bytes `res.json` gives. */
function sendJsonBytes(res: Response, bytes: Buffer): void {
  if (!res.getHeader('Content-Type')) res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  if (!plainAnswer(res)) return void res.send(bytes);
  res.setHeader('Content-Length', String(bytes.length));
  res.end(bytes);
}

/**
 * Sends JSON given as consecutive UTF-8 parts with the bytes and headers `res.send` gives their
 * concatenation, without making it: a plain answer (see plainAnswer) writes the parts corked,
 * one writev; anything else goes through `res.send`.
 */
function sendJsonParts(res: Response, parts: Buffer[]): void {
  if (!plainAnswer(res)) return sendJsonBytes(res, Buffer.concat(parts));
  if (!res.getHeader('Content-Type')) res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  let length = 0;
  for (const part of parts) length += part.length;
  res.setHeader('Content-Length', String(length));
  res.cork();
  for (const part of parts) res.write(part);
  res.uncork();
  res.end();
}

const COMMA = Buffer.from(',');

/**
 * `res.json(value)` where parts of the value were serialized before: `encoded(object)` gives the
 * UTF-8 JSON of an object (a view a read model kept) or undefined. A top-level object with known
 * JSON, or a list envelope ({object, data, next_cursor}) whose items have it, is sent from those
 * bytes; anything else goes through res.json, as does everything when res.json was replaced for
 * this response (an Idempotency-Key's record). Same bytes on the wire either way.
 */
export function sendJsonWith(res: Response, value: unknown, encoded: (object: object) => Buffer | undefined): void {
  // a res.json replaced for this response (the idempotency middleware records what it sends) sees the value
  if (value && typeof value === 'object' && !Object.prototype.hasOwnProperty.call(res, 'json')) {
    const whole = encoded(value);
    if (whole) return sendJsonBytes(res, whole);
    const list = value as { object?: unknown; data?: unknown; next_cursor?: unknown };
    const keys = Object.keys(value);
    if (list.object === 'list' && Array.isArray(list.data) && list.next_cursor !== undefined && keys.length === 3 && keys[0] === 'object' && keys[1] === 'data' && keys[2] === 'next_cursor') {
      const parts: Buffer[] = [Buffer.from('{"object":"list","data":[')];
      for (let i = 0; i < list.data.length; i++) {
        const item: unknown = list.data[i];
        if (i > 0) parts.push(COMMA);
        const bytes = item && typeof item === 'object' ? encoded(item) : undefined;
        parts.push(bytes ?? Buffer.from(JSON.stringify(item) ?? 'null'));
      }
      parts.push(Buffer.from(`],"next_cursor":${JSON.stringify(list.next_cursor) ?? 'null'}}`));
      return sendJsonParts(res, parts);
    }
  }
  res.json(value);
}
