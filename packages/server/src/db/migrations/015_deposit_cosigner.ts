import type { Migration } from './migration.js';

// The key every account of a deposit batch has as a co-signer (the treasury, issue 14): the
// treasury alone then signs for those accounts, so one transaction can settle up to 100 of
// them within Stellar's 20 signatures. NULL for accounts created before (their own key signs).
export const migration: Migration = {
  version: 15,
  name: '015_deposit_cosigner',
  up(t) {
    return [t.schema.alterTable('deposit_batches').addColumn('cosigner', 'text')];
  },
};
