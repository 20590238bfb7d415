import type { Migration } from './migration.js';

// Deposit accounts prepared ahead of demand (issue 14): creating an intent never waits for the chain.
// A batch is one treasury transaction creating many sponsored, trust-lined accounts. Its keys are
// stored (encrypted) with the batch BEFORE submission and its envelope as it is submitted, so a
// crash after submission can look the envelope up or resubmit it unchanged: no account is ever
// created on chain whose key we lost.
export const migration: Migration = {
  version: 14,
  name: '014_deposit_pool',
  up(t) {
    return [
      t.schema.createTable('deposit_batches')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('network', 'text', (c) => c.notNull())
        .addColumn('environment', 'text', (c) => c.notNull())
        // PENDING (keys stored; envelope once built) → APPLIED, or FAILED (nothing was created)
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('envelope_xdr', 'text')
        .addColumn('transaction_hash', 'text')
        .addColumn('failure_code', 'text')
        .addColumn('attempts', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull()),
      t.schema.createIndex('deposit_batches_pending').on('deposit_batches').columns(['status', 'next_attempt_at']),

      // The warm pool: one row per account created for no intent yet. Claimable once its batch applied
      // (transaction_hash set) and until claimed_at; a create claims one in its own transaction.
      t.schema.createTable('deposit_pool')
        .addColumn('id', t.int, (c) => t.identity(c))
        .addColumn('network', 'text', (c) => c.notNull())
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('asset', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull().unique())
        // AES-256-GCM with the deposit secrets key, exactly as deposit_accounts.secret_encrypted
        .addColumn('secret_encrypted', 'text', (c) => c.notNull())
        .addColumn('batch_id', 'text', (c) => c.notNull().references('deposit_batches.id'))
        .addColumn('transaction_hash', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('activated_at', 'text')
        .addColumn('claimed_at', 'text'),
      t.schema.createIndex('deposit_pool_ready').on('deposit_pool')
        .columns(['network', 'environment', 'asset', 'claimed_at', 'activated_at', 'id']),

      // A PROVISIONING deposit account (an intent created while the pool was empty) rides in a batch too.
      t.schema.alterTable('deposit_accounts').addColumn('provision_batch_id', 'text', (c) => c.references('deposit_batches.id')),
      t.schema.createIndex('deposit_accounts_provisioning').on('deposit_accounts').columns(['status', 'provision_batch_id']),
    ];
  },
};
