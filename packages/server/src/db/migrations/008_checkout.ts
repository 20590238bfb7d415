import { sql } from 'kysely';
import type { Migration } from './migration.js';

// Checkout sessions (issue 8). Numbered 008 after the issue so concurrent resource migrations
// (payments, refunds, ledger, webhooks) taking 002… cannot collide with it.
export const migration: Migration = {
  version: 8,
  name: '008_checkout',
  up(t) {
    return [
      t.schema.createTable('checkout_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id'))
        .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment IN ('test', 'live')`))
        .addColumn('funding_intent_id', 'text', (c) => c.notNull().references('funding_intents.id'))
        // expiry of the newest session token issued for it (create or resume)
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull()),
      t.schema.createIndex('checkout_sessions_intent').on('checkout_sessions').column('funding_intent_id'),

      // Handoff tokens: only their SHA-256 is stored; single use (used_at), 60 s, optional PKCE S256.
      t.schema.createTable('checkout_handoffs')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('session_id', 'text', (c) => c.notNull().references('checkout_sessions.id'))
        .addColumn('code_challenge', 'text')
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull()),
      t.schema.createIndex('checkout_handoffs_session').on('checkout_handoffs').column('session_id'),
    ];
  },
};
