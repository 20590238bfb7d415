import { sql } from 'kysely';
import type { Migration } from './migration.js';

// Core platform: accounts, applications, keys, idempotency, request logs, events outbox,
// funding intents with their deposit accounts and status history.
// Money columns are INTEGER stroops; timestamps are ISO 8601 UTC strings with milliseconds.
export const migration: Migration = {
  version: 1,
  name: '001_core',
  up(t) {
    return [
      t.schema.createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('email_verified_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull()),

      t.schema.createTable('email_verifications')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text'),

      t.schema.createTable('account_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text'),

      t.schema.createTable('applications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.references('accounts.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('settlement_address', 'text')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('active').check(sql`status IN ('active', 'inactive')`))
        .addColumn('logo_url', 'text')
        .addColumn('logo_file', 'text')
        .addColumn('logo_content_type', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull()),
      t.schema.createIndex('applications_by_account').on('applications').columns(['account_id', 'created_at', 'id']),

      t.schema.createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id'))
        .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment IN ('test', 'live')`))
        .addColumn('type', 'text', (c) => c.notNull().check(sql`type IN ('secret', 'publishable')`))
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('last4', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('exposed_at', 'text')
        .addColumn('revoked_at', 'text'),
      t.schema.createIndex('api_keys_by_application').on('api_keys').columns(['application_id', 'created_at', 'id']),

      t.schema.createTable('idempotency_keys')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().check(sql`state IN ('in_progress', 'completed')`))
        .addColumn('response_status', t.int)
        .addColumn('response_body', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pkey', ['scope', 'key']),
      t.schema.createIndex('idempotency_keys_by_expiry').on('idempotency_keys').column('expires_at'),

      t.schema.createTable('request_logs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('status', t.int, (c) => c.notNull())
        .addColumn('request_id', 'text', (c) => c.notNull())
        .addColumn('duration_ms', t.int, (c) => c.notNull())
        .addColumn('idempotency_key', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull()),
      t.schema.createIndex('request_logs_by_application').on('request_logs').columns(['application_id', 'environment', 'created_at', 'id']),

      // Outbox: written in the same transaction as the state change it describes.
      t.schema.createTable('events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull()),
      t.schema.createIndex('events_by_application').on('events').columns(['application_id', 'environment', 'created_at', 'id']),

      t.schema.createTable('deposit_accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('network', 'text', (c) => c.notNull())
        .addColumn('stellar_network', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull().unique())
        .addColumn('asset', 'text', (c) => c.notNull())
        // AES-256-GCM under the master key: base64(iv | tag | ciphertext)
        .addColumn('secret_encrypted', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('activated_at', 'text')
        .addColumn('retired_at', 'text'),

      t.schema.createTable('funding_intents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id'))
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('requirement_amount', t.int, (c) => c.notNull())
        .addColumn('requirement_asset', 'text', (c) => c.notNull())
        .addColumn('destination_network', 'text', (c) => c.notNull())
        .addColumn('destination_asset', 'text', (c) => c.notNull())
        .addColumn('destination_address', 'text', (c) => c.notNull())
        .addColumn('received_amount', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('reference', 'text')
        .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('deposit_account_id', 'text', (c) => c.references('deposit_accounts.id'))
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull()),
      t.schema.createIndex('funding_intents_list').on('funding_intents').columns(['application_id', 'environment', 'created_at', 'id']),
      t.schema.createIndex('funding_intents_by_reference').on('funding_intents').columns(['application_id', 'environment', 'reference']),

      // Append-only: one row per transition.
      t.schema.createTable('funding_intent_status_history')
        .addColumn('id', t.int, (c) => t.identity(c))
        .addColumn('funding_intent_id', 'text', (c) => c.notNull().references('funding_intents.id'))
        .addColumn('from_status', 'text')
        .addColumn('to_status', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull()),
      t.schema.createIndex('funding_intent_history_by_intent').on('funding_intent_status_history').columns(['funding_intent_id', 'id']),

      // Operator switches over the fixed asset registry (absent row = enabled).
      t.schema.createTable('asset_settings')
        .addColumn('code', 'text', (c) => c.primaryKey())
        .addColumn('enabled', t.int, (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull()),
    ];
  },
};
