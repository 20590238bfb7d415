import type { MessageKey, Translate } from '../i18n.js';
import { formatCountdown, msLeft } from '../state.js';

export function Countdown({ until, now, t, label = 'expiresIn' }: { until: string; now: number; t: Translate; label?: MessageKey }) {
  return (
    <span class="timer" data-testid={`countdown-${label}`}>
      {t(label, { t: formatCountdown(msLeft(until, now)) })}
    </span>
  );
}
