import type { Migration } from './migration.js';

// A batch's members, activation and release look accounts up by batch: without these, each of
// those statements scanned every deposit account and pool row ever made (most of the CPU of
// provisioning once a server had made some thousands).
export const migration: Migration = {
  version: 17,
  name: '017_deposit_batch_indexes',
  up(t) {
    return [
      t.schema.createIndex('deposit_accounts_by_batch').on('deposit_accounts').column('provision_batch_id'),
      t.schema.createIndex('deposit_pool_by_batch').on('deposit_pool').column('batch_id'),
    ];
  },
};
