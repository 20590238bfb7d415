import type { MessageKey, Translate } from '../i18n.js';
import { formatCountdown, msLeft } from '../state.js';

// `now` ticks once a second; Date.now() keeps a fresh deadline from showing a second too many

export function Countdown({ until, now, t, label = 'expiresIn' }: { until: string; now: number; t: Translate; label?: MessageKey }) {
  return (
    <span class="timer" data-testid={`countdown-${label}`}>
      {t(label, { t: formatCountdown(msLeft(until, Math.max(now, Date.now()))) })}
    </span>
  );
}
