import type { SignedWebhook } from '@fundkit/webhooks';
import { fetch, type Response } from 'undici';
import type { AttemptOutcome } from '../resources/webhooks/deliveries-service.js';
import type { DeliveryTarget } from '../resources/webhooks/targets.js';

const EXCERPT_CHARS = 1024;
/** Enough bytes for 1024 characters of UTF-8 in the common case; the rest is never read. */
const EXCERPT_BYTES = 4096;

export interface PostOptions {
  timeoutMs: number;
  /** aborted at shutdown */
  signal: AbortSignal;
  /** the client and the address rules of the endpoint's environment */
  target: DeliveryTarget;
}

/** The first 1 KiB of the answer, reading no more than needed (a receiver may stream forever). */
async function readExcerpt(response: Response): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // the body broke off or timed out after the status arrived: keep what came
  } finally {
    // nobody waits for the cancel: the excerpt is complete either way
    void reader.cancel().catch(() => {});
  }
  const text = Array.from(new TextDecoder().decode(Buffer.concat(chunks))).slice(0, EXCERPT_CHARS).join('');
  return text === '' ? null : text;
}

/** Short words a developer recognises in the deliveries list. */
function describeError(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `timeout: no answer within ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === 'EFUNDKIT_TARGET_REFUSED') return refused(cause.message!);
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused', ECONNRESET: 'connection reset', ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host not found (DNS)', UND_ERR_SOCKET: 'connection closed', EHOSTUNREACH: 'host unreachable',
  };
  if (cause?.code && known[cause.code]) return known[cause.code]!;
  return (cause?.message ?? (error as Error).message ?? String(error)).slice(0, 200);
}

function refused(reason: string): string {
  return `refused: ${reason}; outside the sandbox webhooks are delivered only to public addresses`;
}

/**
 * POSTs the signed body, byte for byte. Redirects are not followed (a 3xx is a failed attempt),
 * so a URL that passed validation cannot bounce the server somewhere else.
 */
export async function postWebhook(url: string, signed: SignedWebhook, options: PostOptions): Promise<AttemptOutcome> {
  // a literal address is never looked up, so the guard's lookup cannot see it: checked here
  const literal = options.target.refusal(new URL(url).hostname);
  if (literal) return { statusCode: null, latencyMs: null, responseExcerpt: null, error: refused(literal) };
  const started = performance.now();
  const timeout = AbortSignal.timeout(options.timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...signed.headers, 'User-Agent': 'Fundkit-Webhooks/1.0' },
      body: signed.body,
      redirect: 'manual',
      signal: AbortSignal.any([timeout, options.signal]),
      dispatcher: options.target.dispatcher,
    });
    const latencyMs = Math.round(performance.now() - started);
    return { statusCode: response.status, latencyMs, responseExcerpt: await readExcerpt(response), error: null };
  } catch (error) {
    const latencyMs = Math.round(performance.now() - started);
    return { statusCode: null, latencyMs, responseExcerpt: null, error: describeError(error, timeout.aborted, options.timeoutMs) };
  }
}
