import { useState } from 'preact/hooks';

const EVENTS = ['payment.pending', 'payment.processing', 'payment.completed', 'payment.failed', 'refund.created', 'refund.completed', 'refund.failed'];

/** URL and the events to send; all payment and refund events are ticked by default. */
export function CreateEndpointForm({ onCreate }: { onCreate: (url: string, events: string[]) => Promise<void> }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(EVENTS);
  const toggle = (event: string) => setEvents((list) => (list.includes(event) ? list.filter((e) => e !== event) : [...list, event]));

  async function submit(e: Event) {
    e.preventDefault();
    await onCreate(url.trim(), events);
    setUrl('');
  }

  return (
    <form class="card" onSubmit={submit} aria-labelledby="new-endpoint-heading">
      <h2 id="new-endpoint-heading">New endpoint</h2>
      <label for="endpoint-url">Endpoint URL</label>
      <input id="endpoint-url" type="url" required placeholder="https://example.com/webhooks" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
      <fieldset>
        <legend>Events</legend>
        {EVENTS.map((event) => (
          <label key={event} class="check"><input type="checkbox" checked={events.includes(event)} onChange={() => toggle(event)} /> {event}</label>
        ))}
      </fieldset>
      <button type="submit" disabled={events.length === 0}>Create endpoint</button>
    </form>
  );
}
