import { bindAll, prepared, sqlOf, type Sql, type SqlSource } from '../../db/sql.js';
import type { Environment } from '../../domain/environment.js';

export interface CheckoutSessionRecord {
  id: string;
  application_id: string;
  environment: Environment;
  funding_intent_id: string;
  expires_at: string;
  created_at: string;
  /** 1: the one session of the intent's hosted link, reused by every load of the page */
  via_link: number;
}

export interface HandoffRecord {
  token_hash: string;
  session_id: string;
  code_challenge: string | null;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** What a session needs of its intent: ownership and the expiry its token is capped at. */
export interface IntentHead {
  id: string;
  application_id: string;
  environment: Environment;
  expires_at: string;
  updated_at: string;
  /** the hosted link's secret, sealed */
  checkout_secret: string | null;
}

const INTENT_HEAD = prepared<IntentHead, { id: string }>((k, p) =>
  k.selectFrom('funding_intents').select(['id', 'application_id', 'environment', 'expires_at', 'updated_at', 'checkout_secret']).where('id', '=', p('id')));

const INSERT_SESSION = prepared<never, CheckoutSessionRecord>((k, p) =>
  k.insertInto('checkout_sessions').values(bindAll(p, ['id', 'application_id', 'environment', 'funding_intent_id', 'expires_at', 'created_at', 'via_link'])));

// at most one link session an intent (a unique partial index): a second page load racing the first inserts nothing
const INSERT_LINK_SESSION = prepared<never, CheckoutSessionRecord>((k, p) =>
  k.insertInto('checkout_sessions').values(bindAll(p, ['id', 'application_id', 'environment', 'funding_intent_id', 'expires_at', 'created_at', 'via_link']))
    .onConflict((oc) => oc.doNothing()));

const LINK_SESSION = prepared<CheckoutSessionRecord, { intentId: string }>((k, p) =>
  k.selectFrom('checkout_sessions').selectAll().where('funding_intent_id', '=', p('intentId')).where('via_link', '=', 1));

const SESSION = prepared<CheckoutSessionRecord, { id: string }>((k, p) => k.selectFrom('checkout_sessions').selectAll().where('id', '=', p('id')));

const EXTEND_SESSION = prepared<never, { id: string; expiresAt: string }>((k, p) =>
  k.updateTable('checkout_sessions').set({ expires_at: p('expiresAt') }).where('id', '=', p('id')));

const INSERT_HANDOFF = prepared<never, HandoffRecord>((k, p) =>
  k.insertInto('checkout_handoffs').values(bindAll(p, ['token_hash', 'session_id', 'code_challenge', 'expires_at', 'used_at', 'created_at'])));

const HANDOFF = prepared<HandoffRecord, { tokenHash: string }>((k, p) =>
  k.selectFrom('checkout_handoffs').selectAll().where('token_hash', '=', p('tokenHash')));

const CONSUME_HANDOFF = prepared<never, { tokenHash: string; at: string }>((k, p) =>
  k.updateTable('checkout_handoffs').set({ used_at: p('at') }).where('token_hash', '=', p('tokenHash')).where('used_at', 'is', null));

export class CheckoutRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  async intentHead(id: string): Promise<IntentHead | undefined> {
    return this.sql.get(INTENT_HEAD, { id });
  }

  async insertSession(session: CheckoutSessionRecord): Promise<void> {
    await this.sql.run(INSERT_SESSION, session);
  }

  /** The intent's one hosted-link session, made by the first page load. */
  async linkSession(session: CheckoutSessionRecord): Promise<CheckoutSessionRecord> {
    const existing = await this.sql.get(LINK_SESSION, { intentId: session.funding_intent_id });
    if (existing) return existing;
    await this.sql.run(INSERT_LINK_SESSION, session);
    return (await this.sql.get(LINK_SESSION, { intentId: session.funding_intent_id }))!;
  }

  async findSession(id: string): Promise<CheckoutSessionRecord | undefined> {
    return this.sql.get(SESSION, { id });
  }

  async extendSession(id: string, expiresAt: string): Promise<void> {
    await this.sql.run(EXTEND_SESSION, { id, expiresAt });
  }

  async insertHandoff(handoff: HandoffRecord): Promise<void> {
    await this.sql.run(INSERT_HANDOFF, handoff);
  }

  async findHandoff(tokenHash: string): Promise<HandoffRecord | undefined> {
    return this.sql.get(HANDOFF, { tokenHash });
  }

  /** Marks the token used; false when another exchange got there first (single use, race-free). */
  async consumeHandoff(tokenHash: string, at: string): Promise<boolean> {
    return await this.sql.run(CONSUME_HANDOFF, { tokenHash, at }) === 1;
  }
}
