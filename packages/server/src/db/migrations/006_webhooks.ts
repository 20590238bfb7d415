import { sql } from 'kysely';
import type { Migration } from './migration.js';

// Webhooks: endpoints, one delivery per (event, endpoint), and every attempt of a delivery.
export const migration: Migration = {
  version: 6,
  name: '006_webhooks',
  up(t) {
    return [
      t.schema.createTable('webhook_endpoints')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id'))
        .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment IN ('test', 'live')`))
        .addColumn('url', 'text', (c) => c.notNull())
        // JSON array of event types
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('enabled', t.int, (c) => c.notNull().defaultTo(1))
        // AES-256-GCM under a key derived from the master key: the server must sign with the plaintext
        .addColumn('secret_encrypted', 'text', (c) => c.notNull())
        // after a rotation the previous secret keeps signing until previous_secret_expires_at
        .addColumn('previous_secret_encrypted', 'text')
        .addColumn('previous_secret_expires_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        // soft delete: deliveries keep pointing at the row
        .addColumn('deleted_at', 'text'),
      t.schema.createIndex('webhook_endpoints_list').on('webhook_endpoints').columns(['application_id', 'environment', 'created_at', 'id']),

      t.schema.createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id'))
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id'))
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('PENDING', 'SUCCEEDED', 'FAILED')`))
        // attempts started so far (claims); the next claim sends attempt_count + 1
        .addColumn('attempt_count', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text')
        // lease of the worker that claimed it; an expired lease is claimed again (at-least-once)
        .addColumn('locked_until', 'text')
        // identifies the current claim, so a stale claim (lease expired, or redelivered meanwhile)
        // records its attempt but does not overwrite the delivery's state
        .addColumn('claim_token', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('webhook_deliveries_event_id_endpoint_id_key', ['event_id', 'endpoint_id']),
      t.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']),
      t.schema.createIndex('webhook_deliveries_by_endpoint').on('webhook_deliveries').columns(['endpoint_id', 'created_at', 'id']),

      t.schema.createTable('webhook_attempts')
        .addColumn('id', t.int, (c) => t.identity(c))
        .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id'))
        .addColumn('number', t.int, (c) => c.notNull())
        .addColumn('status_code', t.int)
        .addColumn('latency_ms', t.int)
        .addColumn('response_excerpt', 'text')
        .addColumn('error', 'text')
        .addColumn('attempted_at', 'text', (c) => c.notNull()),
      t.schema.createIndex('webhook_attempts_by_delivery').on('webhook_attempts').columns(['delivery_id', 'id']),

      // Fan-out marker on the outbox: NULL until the event's deliveries exist (set in the same
      // transaction that creates them, so each event fans out exactly once).
      t.schema.alterTable('events').addColumn('fanned_out_at', 'text'),
      t.schema.createIndex('events_fanout_pending').on('events').columns(['created_at', 'id']).where(sql.ref('fanned_out_at'), 'is', null),
    ];
  },
};
