import { CheckoutError, type CheckoutOptions } from './types.js';
import { sessionIdOf } from './state.js';

export interface Credentials {
  token: string;
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

function intentOfToken(token: string): string | null {
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { fi?: unknown };
    return typeof payload.fi === 'string' ? payload.fi : null;
  } catch {
    return null;
  }
}

function fromSession(token: string, intentId?: string): Credentials {
  const id = intentId ?? intentOfToken(token);
  if (!id) throw new CheckoutError('the session token names no funding intent; pass intentId', 'invalid_options', 0, false);
  return { token, intentId: id, sessionId: sessionIdOf(token) };
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
    return fromSession(session.session_token, session.funding_intent_id);
  }
  if (options.sessionToken) return fromSession(options.sessionToken, options.intentId);
  if (options.publishableKey && options.intentId) return { token: options.publishableKey, intentId: options.intentId, sessionId: null };
  throw new CheckoutError('pass sessionToken, publishableKey with intentId, or a handoff token with resume', 'invalid_options', 0, false);
}
