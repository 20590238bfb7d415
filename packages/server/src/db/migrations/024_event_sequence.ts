import { sql } from 'kysely';
import type { Migration } from './migration.js';

// The events list is read in the order events committed, not the order they were made. Since
// creates commit side by side on PostgreSQL (issue 16), an event made first can commit last; a
// list ordered by (created_at, id) would then show it below events a poller has already seen.
// `seq` is given to committed events one batch at a time under a lock (events/repo.ts), each
// batch above the last, so a new event only ever appears at the top of the list.
export const migration: Migration = {
  version: 24,
  name: '024_event_sequence',
  up(t) {
    return [
      t.schema.alterTable('events').addColumn('seq', t.int),
      // events already there keep the order they were listed in
      t.raw(`UPDATE events SET seq = ordered.n FROM (
        SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM events
      ) AS ordered WHERE events.id = ordered.id`),
      t.schema.createIndex('events_by_seq').on('events').column('seq').unique(),
      t.schema.createIndex('events_by_application_seq').on('events').columns(['application_id', 'environment', 'seq']),
      t.schema.createIndex('events_unsequenced').on('events').columns(['created_at', 'id']).where(sql.ref('seq'), 'is', null),
      t.schema.dropIndex('events_by_application'),
    ];
  },
};
