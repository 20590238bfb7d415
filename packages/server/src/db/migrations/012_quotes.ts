import { sql } from 'kysely';
import type { Migration } from './migration.js';

// Quotes, route executions, and what an accepted quote changes on its intent.
// Money columns are INTEGER stroops; timestamps ISO 8601 UTC with milliseconds.
export const migration: Migration = {
  version: 12,
  name: '012_quotes',
  up(t) {
    return [
      t.schema.createTable('quotes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('environment', 'text', (c) => c.notNull())
        // null for a simple quote (POST /v1/quotes)
        .addColumn('funding_intent_id', 'text', (c) => c.references('funding_intents.id'))
        .addColumn('type', 'text', (c) => c.notNull().check(sql`type IN ('EXACT_INPUT', 'EXACT_OUTPUT')`))
        .addColumn('status', 'text', (c) => c.notNull()
          .check(sql`status IN ('ACTIVE', 'LOCKED', 'EXECUTING', 'EXECUTED', 'EXPIRED', 'SUPERSEDED', 'FAILED')`))
        .addColumn('stellar_network', 'text', (c) => c.notNull())
        .addColumn('source_asset', 'text', (c) => c.notNull())
        // what the payer sends (slippage margin included) and what the conversion should consume
        .addColumn('source_amount', t.int, (c) => c.notNull())
        .addColumn('source_expected_amount', t.int, (c) => c.notNull())
        .addColumn('destination_asset', 'text', (c) => c.notNull())
        .addColumn('destination_address', 'text')
        .addColumn('destination_amount', t.int, (c) => c.notNull())
        .addColumn('destination_minimum_amount', t.int, (c) => c.notNull())
        .addColumn('route_type', 'text', (c) => c.notNull())
        .addColumn('route_provider', 'text', (c) => c.notNull())
        // steps, path (asset keys), estimated duration, confidence, price impact, score
        .addColumn('route_json', 'text', (c) => c.notNull())
        .addColumn('fees_json', 'text', (c) => c.notNull())
        .addColumn('fee_total', t.int, (c) => c.notNull())
        .addColumn('exchange_rate', 'text', (c) => c.notNull())
        .addColumn('slippage_bps', t.int, (c) => c.notNull())
        .addColumn('failure_code', 'text')
        .addColumn('failure_message', 'text')
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('lock_expires_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull()),
      t.schema.createIndex('quotes_list').on('quotes').columns(['application_id', 'environment', 'created_at', 'id']),
      t.schema.createIndex('quotes_by_intent').on('quotes').columns(['funding_intent_id', 'status']),

      t.schema.createTable('route_executions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        // one execution per quote: a second worker can never convert twice
        .addColumn('quote_id', 'text', (c) => c.notNull().unique().references('quotes.id'))
        .addColumn('funding_intent_id', 'text', (c) => c.notNull().references('funding_intents.id'))
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('provider_execution_id', 'text')
        .addColumn('route_type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('PENDING', 'RUNNING', 'PAUSED', 'SUCCEEDED', 'FAILED')`))
        .addColumn('phase', 'text', (c) => c.notNull()
          .check(sql`phase IN ('CREATED', 'AWAITING_SOURCE_FUNDS', 'PRICING', 'SUBMITTING', 'CONFIRMING', 'COMPLETED')`))
        .addColumn('transaction_hashes', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('source_asset', 'text', (c) => c.notNull())
        // the most the conversion may spend (the quote's source amount; all received funds after a resume)
        .addColumn('send_max', t.int, (c) => c.notNull())
        .addColumn('destination_amount', t.int, (c) => c.notNull())
        // what the conversion really spent; the rest of the received source funds is ROUTE_REMAINDER
        .addColumn('source_consumed', t.int)
        // the signed path payment, stored BEFORE submission so a restart finds or resubmits it
        .addColumn('envelope_xdr', 'text')
        .addColumn('failure_code', 'text')
        .addColumn('failure_message', 'text')
        .addColumn('attempts', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text')
        .addColumn('completed_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull()),
      t.schema.createIndex('route_executions_to_run').on('route_executions').columns(['status', 'next_attempt_at']),

      // What the payer sends once a quote in another asset is accepted (null = the requirement itself).
      t.schema.alterTable('funding_intents').addColumn('source_asset', 'text'),
      t.schema.alterTable('funding_intents').addColumn('source_amount', t.int),
      t.schema.alterTable('funding_intents').addColumn('route_type', 'text', (c) => c.notNull().defaultTo('DIRECT_STELLAR')),
      t.schema.alterTable('funding_intents').addColumn('quote_id', 'text'),
    ];
  },
};
