import type { Db } from '../../db/connection.js';
import type { Environment } from '../../http/context.js';
import { KEYSET_WHERE, keysetParams, type PageRequest } from '../../http/pagination.js';

export interface EventRecord {
  id: string;
  type: string;
  application_id: string;
  environment: Environment;
  created_at: string;
  /** the JSON body, byte for byte as delivered */
  payload: string;
  fanned_out_at: string | null;
}

export class EventsRepo {
  constructor(private readonly db: Db) {}

  findById(id: string): EventRecord | undefined {
    return this.db.prepare('SELECT * FROM events WHERE id = ?').get(id) as EventRecord | undefined;
  }

  list(applicationId: string, environment: Environment, type: string | undefined, page: PageRequest): EventRecord[] {
    const where = ['application_id = @applicationId', 'environment = @environment'];
    if (type) where.push('type = @type');
    if (page.after) where.push(KEYSET_WHERE);
    return this.db.prepare(`SELECT * FROM events WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT @limitPlusOne`)
      .all({ applicationId, environment, type: type ?? null, ...keysetParams(page) }) as EventRecord[];
  }

  /** Events whose deliveries do not exist yet, oldest first. */
  pendingFanOut(limit: number): EventRecord[] {
    return this.db.prepare('SELECT * FROM events WHERE fanned_out_at IS NULL ORDER BY created_at, id LIMIT ?').all(limit) as EventRecord[];
  }

  markFannedOut(id: string, now: string): boolean {
    return this.db.prepare('UPDATE events SET fanned_out_at = ? WHERE id = ? AND fanned_out_at IS NULL').run(now, id).changes === 1;
  }
}
