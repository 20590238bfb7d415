import type { AppApi } from '../app-api.js';
import { formatAmount } from '../format.js';
import { useLoad } from '../use-load.js';
import { summariseDay } from './today-summary.js';

/** Intents a bar per hour: a glance at when today's traffic came (the numbers are beside it). */
function HourChart({ byHour }: { byHour: number[] }) {
  const max = Math.max(1, ...byHour);
  const busiest = byHour.indexOf(Math.max(...byHour));
  return (
    <svg class="hours" viewBox="0 0 240 70" role="img" aria-label={`Intents created per hour today; the busiest hour starts at ${busiest}:00`}>
      {byHour.map((n, hour) => <rect key={hour} x={hour * 10 + 1} y={56 - (n / max) * 52} width="8" height={(n / max) * 52} fill="#2b59c3" />)}
      <line x1="0" x2="240" y1="57" y2="57" stroke="#8a94a6" />
      {[0, 6, 12, 18].map((hour) => <text key={hour} x={hour * 10 + 1} y="68" font-size="8" fill="#5b6475">{hour}:00</text>)}
    </svg>
  );
}

/** Today at a glance: volume credited, payments, failures, and when they came. Polled every 10 s. */
export function TodayPage({ app }: { app: AppApi }) {
  const intents = useLoad(() => app.listIntents({ limit: '100' }), [app], 10_000);
  const day = intents.data ? summariseDay(intents.data.data) : null;
  return (
    <main aria-busy={intents.loading}>
      <h1>Today</h1>
      {intents.error && <p role="alert" class="error">{intents.error}</p>}
      {!day && !intents.error && <p class="muted">Loading…</p>}
      {day && (
        <>
          <section class="card tiles" aria-label="Today's totals">
            <div><span class="muted">Volume credited</span><strong>{day.volume.length ? day.volume.map(([asset, amount]) => formatAmount(amount, asset)).join(' · ') : '0'}</strong></div>
            <div><span class="muted">Payments credited</span><strong>{day.credited}</strong></div>
            <div><span class="muted">Failed or expired</span><strong>{day.failed}</strong></div>
            <div><span class="muted">Still open</span><strong>{day.open}</strong></div>
          </section>
          <section class="card" aria-labelledby="hours-heading">
            <h2 id="hours-heading">Intents by hour</h2>
            <HourChart byHour={day.byHour} />
          </section>
          <p class="muted">From the 100 newest intents of this application and mode.</p>
        </>
      )}
    </main>
  );
}
