import type { Translate } from '../i18n.js';
import type { Phase } from '../state.js';

type End = Exclude<Phase, { kind: 'step' }>['kind'] | 'done';

const ICONS: Record<End, string> = { done: '✓', expired: '⏱', failed: '!', refunded: '↩', cancelled: '×' };

/** The last screen: done, or why paying is no longer possible. */
export function EndState({ kind, name, t }: { kind: End; name: string; t: Translate }) {
  return (
    <section class={`end ${kind === 'done' ? 'ok' : 'bad'}`} data-testid={`end-${kind}`}>
      <p class="icon" aria-hidden="true">{ICONS[kind]}</p>
      <h2>{t(`${kind}_title`)}</h2>
      <p class="muted">{t(`${kind}_body`, { name })}</p>
    </section>
  );
}
