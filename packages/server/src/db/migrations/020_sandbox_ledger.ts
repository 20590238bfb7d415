import type { Migration, MigrationTools } from './migration.js';

// The embedded sandbox Stellar ledger (@fundkit/sandbox's in-process mode, removed: 036 drops these
// tables; this stays as databases applied it). Amounts are stroops stored as TEXT
// (decimal) because int64 balances can exceed JavaScript's safe integers; operation ids and paging
// tokens are 64-bit integers so they sort. Older servers made these tables themselves
// (020_sandbox_legacy.ts), so a SQLite file may have them already (IF NOT EXISTS): the runner
// brings such tables to this shape first (migrateSandbox), since the indexes below name columns
// they lacked.

/** Every transaction by participant; the legacy upgrade also makes it, to fill it (migrateSandbox). */
export const txAccountsTable = (t: MigrationTools) => t.schema.createTable('sbx_tx_accounts').ifNotExists()
  .addColumn('account', 'text', (c) => c.notNull())
  .addColumn('paging', t.int, (c) => c.notNull())
  .addPrimaryKeyConstraint('sbx_tx_accounts_pkey', ['account', 'paging']);

export const migration: Migration = {
  version: 20,
  name: '020_sandbox_ledger',
  up(t) {
    return [
      t.schema.createTable('sbx_state').ifNotExists()
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull()),

      t.schema.createTable('sbx_keys').ifNotExists()
        .addColumn('role', 'text', (c) => c.primaryKey())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('secret', 'text'),

      // master weight, thresholds, flags, home domain and inflation destination: an account's
      // options (setOptions), stellar-core's defaults for accounts older servers made
      t.schema.createTable('sbx_accounts').ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('balance', 'text', (c) => c.notNull())
        .addColumn('seq', 'text', (c) => c.notNull())
        .addColumn('subentries', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('num_sponsoring', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('num_sponsored', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('sponsor', 'text')
        .addColumn('last_modified_ledger', t.int, (c) => c.notNull())
        .addColumn('seq_ledger', t.int, (c) => c.notNull())
        .addColumn('seq_time', t.int, (c) => c.notNull())
        .addColumn('master_weight', t.int, (c) => c.notNull().defaultTo(1))
        .addColumn('low_threshold', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('med_threshold', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('high_threshold', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('flags', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('home_domain', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('inflation_dest', 'text'),

      // `pos`: an account's trustlines in the order they were made (1, 2, ... per account), the
      // order Horizon's balances are listed in here; older files had the rowid for it
      t.schema.createTable('sbx_trustlines').ifNotExists()
        .addColumn('account', 'text', (c) => c.notNull())
        .addColumn('asset', 'text', (c) => c.notNull())
        .addColumn('balance', 'text', (c) => c.notNull())
        .addColumn('lim', 'text', (c) => c.notNull())
        .addColumn('sponsor', 'text')
        .addColumn('last_modified_ledger', t.int, (c) => c.notNull())
        .addColumn('pos', t.int, (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('sbx_trustlines_pkey', ['account', 'asset']),

      t.schema.createTable('sbx_offers').ifNotExists()
        .addColumn('id', t.int, (c) => t.identity(c))
        .addColumn('seller', 'text', (c) => c.notNull())
        .addColumn('selling', 'text', (c) => c.notNull())
        .addColumn('buying', 'text', (c) => c.notNull())
        .addColumn('amount', 'text', (c) => c.notNull())
        .addColumn('price_n', 'text', (c) => c.notNull())
        .addColumn('price_d', 'text', (c) => c.notNull())
        .addColumn('last_modified_ledger', t.int, (c) => c.notNull()),
      t.schema.createIndex('sbx_offers_book').ifNotExists().on('sbx_offers').columns(['selling', 'buying']),

      // An account's extra signers (ed25519 keys), each a subentry whose reserve `sponsor` may pay.
      t.schema.createTable('sbx_signers').ifNotExists()
        .addColumn('account', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('weight', t.int, (c) => c.notNull())
        .addColumn('sponsor', 'text')
        .addPrimaryKeyConstraint('sbx_signers_pkey', ['account', 'key']),
      t.schema.createIndex('sbx_signers_key').ifNotExists().on('sbx_signers').column('key'),

      // `paging`: transactions sort by their paging token (NULL only before an older file's upgrade)
      t.schema.createTable('sbx_transactions').ifNotExists()
        .addColumn('hash', 'text', (c) => c.primaryKey())
        .addColumn('ledger', t.int, (c) => c.notNull())
        .addColumn('successful', t.int, (c) => c.notNull())
        .addColumn('resource', 'text', (c) => c.notNull())
        .addColumn('paging', t.int),
      t.schema.createIndex('sbx_transactions_paging').ifNotExists().on('sbx_transactions').column('paging'),

      // every operation is recorded; `is_payment` picks those /payments lists (old rows were all payments)
      t.schema.createTable('sbx_operations').ifNotExists()
        .addColumn('id', t.int, (c) => c.primaryKey())
        .addColumn('tx_hash', 'text', (c) => c.notNull())
        .addColumn('successful', t.int, (c) => c.notNull())
        .addColumn('record', 'text', (c) => c.notNull())
        .addColumn('is_payment', t.int, (c) => c.notNull().defaultTo(1)),
      t.schema.createIndex('sbx_operations_tx').ifNotExists().on('sbx_operations').column('tx_hash'),

      t.schema.createTable('sbx_op_accounts').ifNotExists()
        .addColumn('account', 'text', (c) => c.notNull())
        .addColumn('op_id', t.int, (c) => c.notNull())
        .addPrimaryKeyConstraint('sbx_op_accounts_pkey', ['account', 'op_id']),

      // History Horizon serves beyond payments: every transaction by participant, effects, ledgers.
      txAccountsTable(t),

      t.schema.createTable('sbx_effects').ifNotExists()
        .addColumn('op_id', t.int, (c) => c.notNull())
        .addColumn('idx', t.int, (c) => c.notNull())
        .addColumn('account', 'text', (c) => c.notNull())
        .addColumn('tx_hash', 'text', (c) => c.notNull())
        .addColumn('record', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('sbx_effects_pkey', ['op_id', 'idx']),
      t.schema.createIndex('sbx_effects_account').ifNotExists().on('sbx_effects').columns(['account', 'op_id', 'idx']),
      t.schema.createIndex('sbx_effects_tx').ifNotExists().on('sbx_effects').column('tx_hash'),

      t.schema.createTable('sbx_ledgers').ifNotExists()
        .addColumn('seq', t.int, (c) => c.primaryKey())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('prev_hash', 'text', (c) => c.notNull())
        .addColumn('closed_at', 'text', (c) => c.notNull())
        .addColumn('header_xdr', 'text', (c) => c.notNull())
        .addColumn('tx_ok', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('tx_failed', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('ops', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('tx_set_ops', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('fees', 'text', (c) => c.notNull().defaultTo('0')),
    ];
  },
};
