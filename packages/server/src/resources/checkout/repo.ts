import type { Db } from '../../db/connection.js';
import type { Environment } from '../../http/context.js';

export interface CheckoutSessionRecord {
  id: string;
  application_id: string;
  environment: Environment;
  funding_intent_id: string;
  expires_at: string;
  created_at: string;
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
}

export class CheckoutRepo {
  constructor(private readonly db: Db) {}

  intentHead(id: string): IntentHead | undefined {
    return this.db.prepare('SELECT id, application_id, environment, expires_at, updated_at FROM funding_intents WHERE id = ?').get(id) as IntentHead | undefined;
  }

  /** Changes whenever the intent's status, received amount or timestamp does. */
  intentMarker(id: string): string | null {
    const row = this.db.prepare('SELECT status, received_amount, updated_at FROM funding_intents WHERE id = ?').safeIntegers(true).get(id) as
      { status: string; received_amount: bigint; updated_at: string } | undefined;
    return row ? `${row.status}|${row.received_amount}|${row.updated_at}` : null;
  }

  insertSession(session: CheckoutSessionRecord): void {
    this.db.prepare(`INSERT INTO checkout_sessions (id, application_id, environment, funding_intent_id, expires_at, created_at)
      VALUES (@id, @application_id, @environment, @funding_intent_id, @expires_at, @created_at)`).run(session);
  }

  findSession(id: string): CheckoutSessionRecord | undefined {
    return this.db.prepare('SELECT * FROM checkout_sessions WHERE id = ?').get(id) as CheckoutSessionRecord | undefined;
  }

  extendSession(id: string, expiresAt: string): void {
    this.db.prepare('UPDATE checkout_sessions SET expires_at = ? WHERE id = ?').run(expiresAt, id);
  }

  insertHandoff(handoff: HandoffRecord): void {
    this.db.prepare(`INSERT INTO checkout_handoffs (token_hash, session_id, code_challenge, expires_at, used_at, created_at)
      VALUES (@token_hash, @session_id, @code_challenge, @expires_at, @used_at, @created_at)`).run(handoff);
  }

  findHandoff(tokenHash: string): HandoffRecord | undefined {
    return this.db.prepare('SELECT * FROM checkout_handoffs WHERE token_hash = ?').get(tokenHash) as HandoffRecord | undefined;
  }

  /** Marks the token used; false when another exchange got there first (single use, race-free). */
  consumeHandoff(tokenHash: string, at: string): boolean {
    return this.db.prepare('UPDATE checkout_handoffs SET used_at = ? WHERE token_hash = ? AND used_at IS NULL').run(at, tokenHash).changes === 1;
  }
}
