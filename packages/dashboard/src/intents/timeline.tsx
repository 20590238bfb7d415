import type { ApiEvent, Intent } from '../app-api.js';
import { formatDate } from '../format.js';

interface Step { at: string; label: string }

/**
 * The intent's history: its creation, then every event about it (each carries the state the intent
 * entered), oldest first. The API keeps no separate status log; events are that log.
 */
export function timelineOf(intent: Intent, events: ApiEvent[]): Step[] {
  const mine = events.filter((e) => e.data.funding_intent_id === intent.id);
  const steps = mine.map((e) => ({ at: e.created_at, label: labelOf(e) }));
  return [{ at: intent.created_at, label: 'CREATED' }, ...steps].sort((a, b) => a.at.localeCompare(b.at));
}

/**
 * An intent event carries the state the intent entered; a payout or refund event carries its
 * settlement's or refund's own status, which is not a state of the intent: it is named as such.
 */
function labelOf(event: ApiEvent): string {
  const status = typeof event.data.status === 'string' ? event.data.status : null;
  const of = event.data.settlement_id ? 'settlement' : event.data.refund_id ? 'refund' : null;
  if (!status) return event.type;
  return of ? `${event.type}: ${of} ${status}` : `${status} (${event.type})`;
}

export function Timeline({ steps }: { steps: Step[] }) {
  return (
    <section class="card" aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Timeline</h2>
      <ol class="timeline">
        {steps.map((step, i) => (
          <li key={i}><time dateTime={step.at}>{formatDate(step.at)}</time> {step.label}</li>
        ))}
      </ol>
    </section>
  );
}
