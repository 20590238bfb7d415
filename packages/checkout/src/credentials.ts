import { CheckoutError, type CheckoutOptions } from './types.js';
import { sessionIdOf } from './state.js';

export interface Credentials {
  token: string;
  /** the API origin: options.baseUrl, else production or sandbox by the credential's environment */
  baseUrl: string;
  intentId: string;
  /** set for session tokens: handoff and quote acceptance need a session */
  sessionId: string | null;
}

const FRAGMENT_KEY = 'fk_handoff';

/**
 * Takes `#fk_handoff=…` out of the address bar before anything else runs, so the token never
 * lingers in history, bookmarks, screenshots or a Referer.
 */
export function takeHandoffFromUrl(): string | null {
  if (typeof location === 'undefined' || !location.hash) return null;
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get(FRAGMENT_KEY);
  if (!token) return null;
  params.delete(FRAGMENT_KEY);
  const rest = params.toString();
  history.replaceState(history.state, '', location.pathname + location.search + (rest ? `#${rest}` : ''));
  return token;
}

export function handoffLink(base: string, token: string): string {
  return `${base.split('#')[0]}#${FRAGMENT_KEY}=${encodeURIComponent(token)}`;
}

const BASE_URLS = { live: 'https://api.fundkit.dev', test: 'https://sandbox.api.fundkit.dev' };

function claims(token: string): { fi?: unknown; env?: unknown } {
  try {
    return JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { fi?: unknown; env?: unknown };
  } catch {
    return {};
  }
}

function baseUrlFor(options: CheckoutOptions, test: boolean): string {
  return (options.baseUrl ?? (test ? BASE_URLS.test : BASE_URLS.live)).replace(/\/+$/, '');
}

function fromSession(options: CheckoutOptions, token: string, intentId?: string): Credentials {
  const { fi, env } = claims(token);
  const id = intentId ?? (typeof fi === 'string' ? fi : null);
  if (!id) throw new CheckoutError('the session token names no funding intent; pass intentId', 'invalid_options', 0, false);
  return { token, baseUrl: baseUrlFor(options, env === 'test'), intentId: id, sessionId: sessionIdOf(token) };
}

/** Session token, else a handoff exchanged through the merchant's resume endpoint, else a publishable key. */
export async function resolveCredentials(options: CheckoutOptions, fragmentToken: string | null): Promise<Credentials> {
  const handoff = options.handoffToken ?? fragmentToken;
  if (handoff && options.resume) {
    let session;
    try {
      session = await options.resume(handoff);
    } catch (cause) {
      throw new CheckoutError(cause instanceof Error ? cause.message : 'this link has expired or was already used', 'invalid_token', 401, false);
    }
    return fromSession(options, session.session_token, session.funding_intent_id);
  }
  if (options.sessionToken) return fromSession(options, options.sessionToken, options.intentId);
  if (options.publishableKey && options.intentId) {
    const test = options.publishableKey.startsWith('pk_test_');
    return { token: options.publishableKey, baseUrl: baseUrlFor(options, test), intentId: options.intentId, sessionId: null };
  }
  throw new CheckoutError('pass sessionToken, publishableKey with intentId, or a handoff token with resume', 'invalid_options', 0, false);
}
