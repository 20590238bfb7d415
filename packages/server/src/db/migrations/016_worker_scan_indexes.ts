import type { Migration } from './migration.js';

// Worker loops poll funding intents by status and by deposit account many times a second: without
// these indexes each poll scanned every intent (profiled: with 100k intents, the deposit pool's
// `waiting`, the retirer's `claim`, the observer's `byDepositAddress`, the expirer and the settler
// took more CPU than the requests they share one event loop with).
export const migration: Migration = {
  version: 16,
  name: '016_worker_scan_indexes',
  up(t) {
    return [
      t.schema.createIndex('funding_intents_by_deposit_account').on('funding_intents').column('deposit_account_id'),
      t.schema.createIndex('funding_intents_by_status').on('funding_intents').columns(['status', 'expires_at']),
      t.schema.createIndex('quotes_locked').on('quotes').columns(['status', 'lock_expires_at']),
    ];
  },
};
