import type { Migration } from './migration.js';

// Muxed deposit addresses (DESIGN §11). A `muxed` intent's deposit_accounts row has the M… address
// as its address (so the UNIQUE address index, the read model and the observer's lookup by address
// work as for a G… account) and its muxed id, unique across the database: a create draws a random
// 64-bit id and draws again on the rare conflict, whichever server made the other. Its secret is
// the collection account's (sealed the same way), so settlement and refunds sign from it.
// collection_accounts: one per network and asset, held by the treasury, created once.
// unattributed_payments: money into a collection account that names no known muxed id; kept
// (never dropped) until the operator returns it.
export const migration: Migration = {
  version: 33,
  name: '033_muxed_deposits',
  up(t) {
    return [
      t.schema.alterTable('deposit_accounts').addColumn('deposit_type', 'text', (c) => c.notNull().defaultTo('account')),
      t.schema.alterTable('deposit_accounts').addColumn('muxed_id', 'text'),
      t.schema.alterTable('deposit_accounts').addColumn('collection_address', 'text'),
      t.schema.createIndex('deposit_accounts_muxed_id').on('deposit_accounts').column('muxed_id').unique(),
      t.schema.createTable('collection_accounts')
        .addColumn('network', 'text', (c) => c.notNull())
        .addColumn('asset', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull().unique())
        // AES-256-GCM with the deposit secrets key, exactly as deposit_accounts.secret_encrypted
        .addColumn('secret_encrypted', 'text', (c) => c.notNull())
        // PROVISIONING (a server is creating it on chain) → ACTIVE
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('activated_at', 'text')
        .addPrimaryKeyConstraint('collection_accounts_pk', ['network', 'asset']),
      t.schema.createTable('unattributed_payments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('network', 'text', (c) => c.notNull())
        .addColumn('collection_address', 'text', (c) => c.notNull())
        .addColumn('asset_code', 'text', (c) => c.notNull())
        .addColumn('stellar_asset', 'text', (c) => c.notNull())
        .addColumn('amount', t.int, (c) => c.notNull())
        .addColumn('payer_address', 'text', (c) => c.notNull())
        // the muxed id the payment named (unknown to us), null for a plain G… payment
        .addColumn('to_muxed_id', 'text')
        .addColumn('transaction_hash', 'text', (c) => c.notNull())
        .addColumn('operation_id', 'text', (c) => c.notNull().unique())
        .addColumn('ledger', t.int, (c) => c.notNull())
        // RECORDED → REFUNDING → REFUNDED (or back to RECORDED when the refund failed)
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('refund_destination', 'text')
        .addColumn('refund_transaction_hash', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull()),
      t.schema.createIndex('unattributed_payments_list').on('unattributed_payments').columns(['network', 'created_at', 'id']),
    ];
  },
};
