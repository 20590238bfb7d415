import type { Db } from './connection.js';
import { bindAll, prepared, SqliteSql } from './sql.js';
import type { Environment } from '../http/context.js';
import { newId } from '../lib/ids.js';
import { isoNow } from '../lib/time.js';

export interface OutboxEvent {
  type: string;
  applicationId: string;
  environment: Environment;
  data: Record<string, unknown>;
}

/** An event row as the outbox writes it. */
export interface EventRow {
  id: string;
  type: string;
  application_id: string;
  environment: Environment;
  created_at: string;
  /** the JSON body, byte for byte as delivered */
  payload: string;
}

const INSERT_EVENT = prepared<unknown, EventRow>((k, p) =>
  k.insertInto('events').values(bindAll(p, ['id', 'type', 'application_id', 'environment', 'created_at', 'payload'])));

type OutboxListener = () => void;
const listeners = new WeakMap<Db, Set<OutboxListener>>();

/**
 * Wakes the webhook worker when the outbox gets work. Listeners run on the next tick: every
 * transaction here is synchronous, so by then the event row has committed (or rolled back).
 */
export function onOutboxWrite(db: Db, listener: OutboxListener): () => void {
  const set = listeners.get(db) ?? new Set<OutboxListener>();
  listeners.set(db, set);
  set.add(listener);
  return () => set.delete(listener);
}

export function notifyOutbox(db: Db): void {
  const set = listeners.get(db);
  if (set?.size) setImmediate(() => set.forEach((listener) => listener()));
}

/** Inserts an event row; call it inside the transaction that made the state change. */
export function insertEvent(db: Db, event: OutboxEvent): string {
  const id = newId('event');
  const createdAt = isoNow();
  const payload = {
    id,
    object: 'event',
    type: event.type,
    created_at: createdAt,
    livemode: event.environment === 'live',
    data: event.data,
  };
  new SqliteSql(db).run(INSERT_EVENT, {
    id, type: event.type, application_id: event.applicationId, environment: event.environment, created_at: createdAt, payload: JSON.stringify(payload),
  });
  notifyOutbox(db);
  return id;
}
