import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError, notFound } from '../../http/api-error.js';
import { signCheckoutToken } from '../../http/checkout-token.js';
import type { Environment } from '../../domain/environment.js';
import { sha256Hex } from '../../lib/crypto.js';
import { newId, randomToken } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import type { FundingIntentsService } from '../funding-intents/service.js';
import type { CheckoutLinks } from '../funding-intents/checkout-link.js';
import type { CheckoutRepo, CheckoutSessionRecord, IntentHead } from './repo.js';
import type { StatusFeed, StatusListener } from '../funding-intents/status-feed.js';

const SESSION_TTL_MS = 30 * 60_000;
const HANDOFF_TTL_MS = 60_000;

export interface CheckoutDeps {
  repo: CheckoutRepo;
  /** lazy: the registry builds this service beside the intent service */
  fundingIntents: FundingIntentsService;
  /** HS256 key of checkout session tokens (the same derivation the auth middleware verifies with) */
  checkoutKey: Buffer;
  publicBaseUrl: () => string;
  /** the secrets of hosted checkout links */
  links: CheckoutLinks;
  /** which intents this process's status streams follow, polled together */
  statusFeed: StatusFeed;
}

/** An application acting with a key (secret or publishable). */
export interface KeyCaller {
  applicationId: string;
  environment: Environment;
}

/** Who reads the public view: a publishable key of the application, or a session bound to one intent. */
export interface Viewer extends KeyCaller {
  application: { id: string; name: string; logo_url: string | null };
  /** set for a checkout session token: the only intent it may read */
  boundIntentId?: string;
}

/** Who asks for a handoff: the session itself, or the application's secret key. */
export type HandoffCaller = { kind: 'session'; sessionId: string } | ({ kind: 'secret' } & KeyCaller);

export interface HandoffInput {
  code_challenge?: string;
  code_challenge_method?: 'S256';
}

export interface ResumeInput {
  handoff_token: string;
  code_verifier?: string;
}

type PresentedIntent = Awaited<ReturnType<FundingIntentsService['get']>>;

function invalidHandoff(): ApiError {
  // one answer for unknown, used, expired and wrong verifier: nothing to learn by probing
  return new ApiError('INVALID_TOKEN', 'this handoff token is invalid, expired or already used; start the handoff again');
}

function verifierMatches(challenge: string, verifier: string | undefined): boolean {
  if (!verifier) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

export class CheckoutService {
  constructor(private readonly deps: CheckoutDeps) {}

  /** createCheckoutSession: the intent must be the caller's (else 404; other environment 403). */
  async create(caller: KeyCaller, fundingIntentId: string) {
    const intent = await this.ownedIntent(caller, fundingIntentId);
    if (Date.parse(intent.expires_at) <= Date.now()) {
      throw new ApiError('CONFLICT', 'this funding intent has expired; create a new intent to collect the payment');
    }
    const now = isoNow();
    const session: CheckoutSessionRecord = {
      id: newId('checkout_session'), application_id: intent.application_id, environment: intent.environment,
      funding_intent_id: intent.id, expires_at: now, created_at: now, via_link: 0,
    };
    await this.deps.repo.insertSession(session);
    return this.issue(session, intent);
  }

  /**
   * For the hosted page: the session of an unexpired intent whose link secret `key` is, the same
   * session on every load (a fresh token each time). null when the intent is unknown or the key
   * is missing or wrong: one answer, so the page shows nothing of the intent either way.
   */
  async openHostedLink(fundingIntentId: string, key: unknown) {
    const intent = await this.deps.repo.intentHead(fundingIntentId);
    if (!intent || !this.deps.links.opens(intent.checkout_secret, key)) return null;
    if (Date.parse(intent.expires_at) <= Date.now()) return { expired: true as const };
    const now = isoNow();
    const session = await this.deps.repo.linkSession({
      id: newId('checkout_session'), application_id: intent.application_id, environment: intent.environment,
      funding_intent_id: intent.id, expires_at: now, created_at: now, via_link: 1,
    });
    return { expired: false as const, session: await this.issue(session, intent) };
  }

  async handoff(caller: HandoffCaller, sessionId: string, input: HandoffInput) {
    const session = await this.deps.repo.findSession(sessionId);
    if (caller.kind === 'session') {
      if (caller.sessionId !== sessionId) throw new ApiError('FORBIDDEN', 'a checkout session token may only hand off its own session');
    } else if (!session || session.application_id !== caller.applicationId) {
      throw notFound('checkout session');
    } else if (session.environment !== caller.environment) {
      throw new ApiError('FORBIDDEN', `this checkout session belongs to the ${session.environment} environment; use a ${session.environment} key`);
    }
    if (!session) throw notFound('checkout session');
    const token = `hot_${randomToken(32)}`;
    const createdAt = Date.now();
    const expiresAt = isoNow(createdAt + HANDOFF_TTL_MS);
    await this.deps.repo.insertHandoff({
      token_hash: sha256Hex(token), session_id: session.id, code_challenge: input.code_challenge ?? null,
      expires_at: expiresAt, used_at: null, created_at: isoNow(createdAt),
    });
    return { handoff_token: token, expires_at: expiresAt };
  }

  /** resumeCheckoutSession: single use; the owner's attempt consumes it even with a wrong verifier (no guessing). */
  async resume(caller: KeyCaller, input: ResumeInput) {
    const hash = sha256Hex(input.handoff_token);
    const handoff = await this.deps.repo.findHandoff(hash);
    if (!handoff || handoff.used_at || Date.parse(handoff.expires_at) <= Date.now()) throw invalidHandoff();
    // another application's (or environment's) key neither uses nor burns the payer's token: the
    // answer is the same, so it learns nothing, and the owner can still resume
    const session = await this.deps.repo.findSession(handoff.session_id);
    if (!session || session.application_id !== caller.applicationId || session.environment !== caller.environment) throw invalidHandoff();
    if (!await this.deps.repo.consumeHandoff(hash, isoNow())) throw invalidHandoff();
    if (handoff.code_challenge && !verifierMatches(handoff.code_challenge, input.code_verifier)) throw invalidHandoff();
    const intent = await this.deps.repo.intentHead(session.funding_intent_id);
    if (!intent) throw invalidHandoff();
    return this.issue(session, intent);
  }

  /** retrievePublicFundingIntent: what a payer may see, never metadata, reference or destination. */
  async publicView(viewer: Viewer, id: string) {
    if (viewer.boundIntentId !== undefined && viewer.boundIntentId !== id) {
      throw new ApiError('FORBIDDEN', 'this checkout session is for another funding intent');
    }
    return toPublic(await this.deps.fundingIntents.get(viewer, id), viewer.application);
  }

  /** Follows an intent's changes for its status stream: the full view is built again only when it moves. */
  followStatus(id: string, listener: StatusListener): Promise<(() => void) | null> {
    return this.deps.statusFeed.follow(id, listener);
  }

  /** Ends every status stream of this process (the server is stopping; checkouts reconnect). */
  closeStatusStreams(): void {
    this.deps.statusFeed.close();
  }

  private async ownedIntent(caller: KeyCaller, id: string): Promise<IntentHead> {
    const intent = await this.deps.repo.intentHead(id);
    if (!intent || intent.application_id !== caller.applicationId) throw notFound('funding intent');
    if (intent.environment !== caller.environment) {
      throw new ApiError('FORBIDDEN', `this funding intent belongs to the ${intent.environment} environment; use a ${intent.environment} key`);
    }
    return intent;
  }

  /** A fresh token: 30 minutes, capped at the intent's expiry (DESIGN §3). */
  private async issue(session: CheckoutSessionRecord, intent: IntentHead) {
    const expiresMs = Math.min(Date.now() + SESSION_TTL_MS, Date.parse(intent.expires_at));
    const expiresAt = isoNow(expiresMs);
    const token = await signCheckoutToken(this.deps.checkoutKey, {
      sessionId: session.id, fundingIntentId: intent.id, applicationId: intent.application_id, environment: intent.environment,
    }, Math.floor(expiresMs / 1000));
    await this.deps.repo.extendSession(session.id, expiresAt);
    return {
      id: session.id,
      object: 'checkout_session' as const,
      session_token: token,
      funding_intent_id: intent.id,
      expires_at: expiresAt,
      url: this.deps.links.url(this.deps.publicBaseUrl(), intent),
    };
  }
}

function toPublic(intent: PresentedIntent, application: Viewer['application']) {
  const quote = intent.quote as { id?: string } | null;
  return {
    id: intent.id,
    object: 'public_funding_intent' as const,
    status: intent.status,
    requirement: intent.requirement,
    received_amount: intent.received_amount,
    // funding_instructions.amount is what is still to send, in the asset the payer sends
    remaining_amount: intent.funding_instructions.amount,
    source: intent.source,
    funding_instructions: intent.funding_instructions,
    application: { id: application.id, name: application.name, logo_url: application.logo_url },
    quote_id: quote?.id ?? null,
    livemode: intent.livemode,
    expires_at: intent.expires_at,
    updated_at: intent.updated_at,
  };
}
