/**
 * Moves intents along THE transition table (records/intent-transitions.ts): the status,
 * its append-only history row and its event (DESIGN §8) are written together; callers run it
 * inside the transaction that made the change, so a state change and its event commit as one.
 */
import { isoNow } from '../lib/time.js';
import type { FundingIntentRecord, FundingIntentsRepo } from '../records/funding-intents.js';
import { assertTransition, eventFor, type FundingIntentStatus } from '../records/intent-transitions.js';
import type { EventWriter } from './events.js';

export class StateMachine {
  constructor(
    private readonly intents: FundingIntentsRepo,
    private readonly events: EventWriter,
    /** told of each transition made in the transaction (metrics, logs: once it committed) */
    private readonly moved: (id: string, from: FundingIntentStatus, to: FundingIntentStatus) => void = () => undefined,
  ) {}

  async load(id: string): Promise<FundingIntentRecord> {
    const intent = await this.intents.findById(id);
    if (!intent) throw new Error(`funding intent ${id} vanished`);
    return intent;
  }

  async transition(id: string, to: FundingIntentStatus, reason: string): Promise<FundingIntentRecord> {
    const intent = await this.load(id);
    assertTransition(intent.status, to);
    const at = isoNow();
    await this.intents.setStatus(id, to, at);
    await this.intents.insertHistory(id, intent.status, to, reason, at);
    const updated = await this.load(id);
    const type = eventFor(to);
    if (type) await this.events.intentEvent(type, updated);
    // only open intents expire, so an expiry always leaves the requirement unmet
    if (to === 'EXPIRED') await this.events.intentEvent('invoice.overdue', updated);
    this.moved(id, intent.status, to);
    return updated;
  }
}
