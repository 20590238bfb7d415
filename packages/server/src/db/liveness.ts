/**
 * Whether the server that holds a claim (an idempotency key's running request, a webhook
 * delivery's attempt) is still alive: it is this server, or its heartbeat (server_instances,
 * migration 021) is more recent than the instance timeout. A killed server's claims are free
 * once its heartbeat is stale.
 */
import type { ExpressionBuilder } from 'kysely';
import type { Params } from './sql.js';

/** The server process claims are made by, and how long a silent one counts as alive. */
export interface ClaimOwner {
  id: string;
  timeoutMs: number;
}

/** The parameters of `ownerAlive`: this server, and the oldest heartbeat that still counts. */
export type Liveness = { owner: string; since: string };

export function livenessAt(owner: ClaimOwner, now: string): Liveness {
  return { owner: owner.id, since: new Date(Date.parse(now) - owner.timeoutMs).toISOString() };
}

/** `column` (a server id) names this server or one with a recent heartbeat; NULL for NULL. */
export function ownerAlive(eb: ExpressionBuilder<any, any>, column: string, p: Params<Liveness>) {
  return eb.or([
    eb(column, '=', p('owner')),
    eb.exists(eb.selectFrom('server_instances as s').select('s.id').whereRef('s.id', '=', column).where('s.heartbeat_at', '>=', p('since'))),
  ]);
}
