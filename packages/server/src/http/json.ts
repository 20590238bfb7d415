import type { Response } from 'express';

/**
 * Sends JSON text already serialized, exactly as `res.json` would send the value it came from
 * (res.json sets `application/json` unless a Content-Type is set, and `send` adds the charset).
 * Only for operations without an Idempotency-Key: the idempotency middleware records what
 * passes through `res.json`.
 */
export function sendJsonText(res: Response, text: string): void {
  if (!res.get('Content-Type')) res.set('Content-Type', 'application/json');
  res.send(text);
}

const serialized = new WeakMap<object, string>();

/** `res.json` for a frozen value shared by requests: serialized once, then the same text each time. */
export function sendSharedJson(res: Response, value: object): void {
  let text = serialized.get(value);
  if (text === undefined) {
    if (!Object.isFrozen(value)) throw new Error('sendSharedJson needs a frozen value (its text is cached)');
    text = JSON.stringify(value);
    serialized.set(value, text);
  }
  sendJsonText(res, text);
}
