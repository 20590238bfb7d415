import { bindAll, prepared, sqlOf, type Sql, type SqlSource } from './sql.js';
import type { Environment } from '../domain/environment.js';
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
const listeners = new WeakMap<Sql, Set<OutboxListener>>();

/** Wakes the webhook worker when the outbox gets work. */
export function onOutboxWrite(source: SqlSource, listener: OutboxListener): () => void {
  const sql = sqlOf(source);
  const set = listeners.get(sql) ?? new Set<OutboxListener>();
  listeners.set(sql, set);
  set.add(listener);
  return () => set.delete(listener);
}

/**
 * Listeners run once the current transaction has committed (none if it rolls back), on the next
 * turn: a worker woken earlier would look for the event row before it exists for others.
 */
export function notifyOutbox(source: SqlSource): void {
  const sql = sqlOf(source);
  const set = listeners.get(sql);
  if (set?.size) sql.afterCommit(() => setImmediate(() => set.forEach((listener) => listener())));
}

/** Inserts an event row; call it inside the transaction that made the state change. */
export async function insertEvent(source: SqlSource, event: OutboxEvent): Promise<string> {
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
  await sqlOf(source).run(INSERT_EVENT, {
    id, type: event.type, application_id: event.applicationId, environment: event.environment, created_at: createdAt, payload: JSON.stringify(payload),
  });
  notifyOutbox(source);
  return id;
}
