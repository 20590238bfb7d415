import { sql } from 'kysely';
import type { Migration } from './migration.js';

// Issue 38: hosted checkout links carry a secret of their own. The intent row keeps it sealed
// (resources/funding-intents/checkout-link.ts); the page the link opens reuses one checkout
// session per intent (via_link = 1, at most one such row an intent) instead of a row per page load.
export const migration: Migration = {
  version: 30,
  name: '030_checkout_links',
  up(t) {
    return [
      t.schema.alterTable('funding_intents').addColumn('checkout_secret', 'text'),
      t.schema.alterTable('checkout_sessions').addColumn('via_link', t.int, (c) => c.notNull().defaultTo(0)),
      t.schema.createIndex('checkout_sessions_link').on('checkout_sessions').column('funding_intent_id').unique()
        .where(sql.ref('via_link'), '=', 1),
    ];
  },
};
