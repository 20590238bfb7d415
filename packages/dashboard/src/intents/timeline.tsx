import type { ApiEvent, Intent } from '../app-api.js';
import { formatDate } from '../format.js';

interface Step { at: string; label: string }

/**
 * The intent's history: its creation, then every event about it (each carries the state the intent
 * entered), oldest first. The API keeps no separate status log; events are that log.
 */
export function timelineOf(intent: Intent, events: ApiEvent[]): Step[] {
  const mine = events.filter((e) => e.data.funding_intent_id === intent.id);
  const steps = mine.map((e) => ({ at: e.created_at, label: `${typeof e.data.status === 'string' ? e.data.status : e.type} (${e.type})` }));
  return [{ at: intent.created_at, label: 'CREATED' }, ...steps].sort((a, b) => a.at.localeCompare(b.at));
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
