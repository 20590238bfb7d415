import type { Translate } from '../i18n.js';
import { STEPS, stepIndex, type Step } from '../state.js';

/** The progress bar plus a polite live region, so screen readers hear each change once. */
export function StatusSteps({ step, t }: { step: Step; t: Translate }) {
  const current = stepIndex(step);
  const done = step === 'done';
  return (
    <section>
      <ol class="steps" aria-label={t('statusLabel')}>
        {STEPS.map((s, i) => (
          <li key={s} class={`step ${i < current || done ? 'done' : i === current ? 'current' : ''}`} aria-current={i === current ? 'step' : undefined}>
            {t(`step_${s}`)}
          </li>
        ))}
      </ol>
      <p class="sr" role="status" aria-live="polite" data-testid="live-status">
        {t('status_now', { step: t(`step_${step}`) })}
      </p>
    </section>
  );
}
