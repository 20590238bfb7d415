import { ApiError, notFound } from '../../http/api-error.js';
import type { Environment } from '../../domain/environment.js';
import { toList } from '../../http/pagination.js';
import type { PageRequest } from '../../domain/page.js';
import type { EventRecord, EventsRepo } from './repo.js';

/** The event exactly as its deliveries carry it: the stored body, parsed. */
export function presentEvent(event: EventRecord): unknown {
  return JSON.parse(event.payload);
}

export class EventsService {
  constructor(private readonly repo: EventsRepo) {}

  /** In commit order, newest first: a new event only ever appears at the top. */
  async list(applicationId: string, environment: Environment, type: string | undefined, page: PageRequest) {
    await this.repo.sequenceCommitted();
    return toList(await this.repo.list(applicationId, environment, type, page), page, presentEvent);
  }

  async get(applicationId: string, environment: Environment, id: string) {
    const event = await this.repo.findById(id);
    if (!event || event.application_id !== applicationId) throw notFound('event');
    if (event.environment !== environment) throw new ApiError('FORBIDDEN', `this event belongs to the ${event.environment} environment; use a ${event.environment} key`);
    return presentEvent(event);
  }
}
