import type { Db } from './connection.js';
import type { Environment } from '../http/context.js';
import { newId } from '../lib/ids.js';
import { isoNow } from '../lib/time.js';

export interface OutboxEvent {
  type: string;
  applicationId: string;
  environment: Environment;
  data: Record<string, unknown>;
}

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
  db.prepare('INSERT INTO events (id, type, application_id, environment, created_at, payload) VALUES (?, ?, ?, ?, ?, ?)')
    .run(id, event.type, event.applicationId, event.environment, createdAt, JSON.stringify(payload));
  notifyOutbox(db);
  return id;
}
