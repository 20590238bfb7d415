import { sql } from 'kysely';
import type { Migration } from './migration.js';

// The payment pipeline: observed payments, settlements, the double-entry ledger, refunds,
// deposit-account watching and the platform's own Stellar keys.
// Money columns are INTEGER stroops; timestamps ISO 8601 UTC with milliseconds.
export const migration: Migration = {
  version: 10,
  name: '010_payments',
  up(t) {
    return [
      // Platform keys (the treasury), AES-256-GCM under the master key.
      t.schema.createTable('stellar_keys')
        .addColumn('role', 'text', (c) => c.primaryKey())
        .addColumn('network', 'text', (c) => c.notNull())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('secret_encrypted', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull()),

      // Deposit accounts the observer watches, by address (written by the provisioner, before the
      // intent row exists). `cursor` is the paging token of the last record PROCESSED.
      t.schema.createTable('deposit_watch')
        .addColumn('address', 'text', (c) => c.primaryKey())
        .addColumn('network', 'text', (c) => c.notNull())
        .addColumn('provision_tx_hash', 'text')
        .addColumn('cursor', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'text', (c) => c.notNull()),

      t.schema.createTable('payments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('funding_intent_id', 'text', (c) => c.notNull().references('funding_intents.id'))
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('stellar_network', 'text', (c) => c.notNull())
        .addColumn('asset_code', 'text', (c) => c.notNull())
        .addColumn('stellar_asset', 'text', (c) => c.notNull())
        .addColumn('amount', t.int, (c) => c.notNull())
        // the part counted toward the requirement; amount - applied_amount is surplus
        .addColumn('applied_amount', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('payer_address', 'text', (c) => c.notNull())
        .addColumn('destination_address', 'text', (c) => c.notNull())
        .addColumn('transaction_hash', 'text', (c) => c.notNull())
        // Horizon operation id: a replay or a second observer can never apply a payment twice
        .addColumn('operation_id', 'text', (c) => c.notNull().unique())
        .addColumn('paging_token', 'text', (c) => c.notNull())
        .addColumn('operation_type', 'text', (c) => c.notNull())
        .addColumn('ledger', t.int, (c) => c.notNull())
        .addColumn('memo_type', 'text')
        .addColumn('memo_value', 'text')
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('DETECTED', 'CONFIRMED', 'UNAPPLIED', 'FAILED')`))
        .addColumn('failure_code', 'text')
        .addColumn('failure_message', 'text')
        .addColumn('attempts', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('detected_at', 'text', (c) => c.notNull())
        .addColumn('confirmed_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull()),
      t.schema.createIndex('payments_list').on('payments').columns(['application_id', 'environment', 'created_at', 'id']),
      t.schema.createIndex('payments_by_intent').on('payments').columns(['funding_intent_id', 'created_at', 'id']),
      t.schema.createIndex('payments_to_confirm').on('payments').columns(['status', 'next_attempt_at']),

      t.schema.createTable('settlements')
        .addColumn('id', 'text', (c) => c.primaryKey())
        // one settlement per intent: a crash or a second worker can never settle twice
        .addColumn('funding_intent_id', 'text', (c) => c.notNull().unique().references('funding_intents.id'))
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id'))
        .addColumn('stellar_network', 'text', (c) => c.notNull())
        .addColumn('route', 'text', (c) => c.notNull().check(sql`route IN ('direct', 'path_payment')`))
        .addColumn('source_asset', 'text', (c) => c.notNull())
        .addColumn('source_amount', t.int, (c) => c.notNull())
        .addColumn('destination_asset', 'text', (c) => c.notNull())
        .addColumn('destination_address', 'text', (c) => c.notNull())
        .addColumn('destination_amount', t.int, (c) => c.notNull())
        .addColumn('transaction_hash', 'text')
        // the signed transfer, stored BEFORE it is submitted, so a restart resubmits or finds it
        .addColumn('envelope_xdr', 'text')
        .addColumn('transfer_transaction_hash', 'text')
        .addColumn('protocol_settlement_id', 'text')
        .addColumn('protocol_contract_id', 'text')
        .addColumn('protocol_create_transaction_hash', 'text')
        .addColumn('protocol_confirm_transaction_hash', 'text')
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('PENDING', 'SUBMITTED', 'CONFIRMED', 'FAILED')`))
        .addColumn('reconciliation_status', 'text', (c) => c.notNull().defaultTo('UNRECONCILED')
          .check(sql`reconciliation_status IN ('UNRECONCILED', 'RECONCILED', 'MISMATCHED')`))
        .addColumn('fail_on_submit', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('failure_code', 'text')
        .addColumn('failure_message', 'text')
        .addColumn('attempts', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('submitted_at', 'text')
        .addColumn('confirmed_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull()),
      t.schema.createIndex('settlements_list').on('settlements').columns(['application_id', 'environment', 'created_at', 'id']),
      t.schema.createIndex('settlements_to_run').on('settlements').columns(['status', 'next_attempt_at']),

      // Test helper: the intent's next settlement fails.
      t.schema.createTable('settlement_failure_flags')
        .addColumn('funding_intent_id', 'text', (c) => c.primaryKey().references('funding_intents.id'))
        .addColumn('created_at', 'text', (c) => c.notNull()),

      // Double entry: every journal's debits equal its credits; balances are sums of entries.
      t.schema.createTable('ledger_entries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('journal_id', 'text', (c) => c.notNull())
        .addColumn('account', 'text', (c) => c.notNull()
          .check(sql`account IN ('APPLICATION_BALANCE', 'SETTLEMENT_CLEARING', 'REFUND_CLEARING', 'FEES')`))
        .addColumn('direction', 'text', (c) => c.notNull().check(sql`direction IN ('CREDIT', 'DEBIT')`))
        .addColumn('type', 'text', (c) => c.notNull().check(sql`type IN ('INTENT_CREDIT', 'REFUND', 'FEE', 'ADJUSTMENT')`))
        .addColumn('asset', 'text', (c) => c.notNull())
        .addColumn('amount', t.int, (c) => c.notNull().check(sql`amount > 0`))
        .addColumn('funding_intent_id', 'text')
        .addColumn('settlement_id', 'text')
        .addColumn('refund_id', 'text')
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull()),
      t.schema.createIndex('ledger_entries_list').on('ledger_entries').columns(['application_id', 'environment', 'created_at', 'id']),
      t.schema.createIndex('ledger_entries_by_journal').on('ledger_entries').column('journal_id'),
      // exactly one credit per credited intent
      t.schema.createIndex('ledger_one_credit_per_intent').on('ledger_entries').unique().columns(['funding_intent_id', 'account'])
        .where(sql.ref('type'), '=', 'INTENT_CREDIT'),

      t.schema.createTable('refunds')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('funding_intent_id', 'text', (c) => c.notNull().references('funding_intents.id'))
        .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id'))
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('asset_code', 'text', (c) => c.notNull())
        .addColumn('stellar_asset', 'text', (c) => c.notNull())
        .addColumn('amount', t.int, (c) => c.notNull().check(sql`amount > 0`))
        // DEPOSIT: paid from the deposit account; BALANCE: MANUAL, from the ledger balance (treasury pays)
        .addColumn('source', 'text', (c) => c.notNull().check(sql`source IN ('DEPOSIT', 'BALANCE')`))
        .addColumn('destination_network', 'text', (c) => c.notNull())
        .addColumn('destination_address', 'text', (c) => c.notNull())
        .addColumn('memo_type', 'text')
        .addColumn('memo_value', 'text')
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED')`))
        .addColumn('envelope_xdr', 'text')
        .addColumn('transaction_hash', 'text')
        .addColumn('failure_code', 'text')
        .addColumn('failure_message', 'text')
        .addColumn('attempts', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('completed_at', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull()),
      t.schema.createIndex('refunds_list').on('refunds').columns(['application_id', 'environment', 'created_at', 'id']),
      t.schema.createIndex('refunds_by_payment').on('refunds').columns(['payment_id', 'created_at', 'id']),
      t.schema.createIndex('refunds_to_run').on('refunds').columns(['status', 'next_attempt_at']),
      // at most one refund of a payment in progress at a time (INTERFACE: a second one is 409)
      t.schema.createIndex('refunds_one_in_progress').on('refunds').unique().column('payment_id')
        .where(sql.ref('status'), 'in', ['PENDING', 'PROCESSING']),
    ];
  },
};
