import type { Translate } from '../i18n.js';
import type { Phase } from '../state.js';

type End = Exclude<Phase, { kind: 'step' }>['kind'] | 'done';

// Drawn, not typed: emoji and symbol glyphs are missing from many system fonts (tofu boxes).
const PATHS: Record<End, string> = {
  done: 'M7 12.5l3.2 3.2L17 9',
  expired: 'M12 7v5l3 2',
  failed: 'M12 7v6M12 16.5v.5',
  refunded: 'M9 8L5.5 11.5 9 15M6 11.5h8a3.5 3.5 0 010 7h-2',
  cancelled: 'M8.5 8.5l7 7M15.5 8.5l-7 7',
};

function Icon({ kind }: { kind: End }) {
  return (
    <svg class="icon" viewBox="0 0 24 24" width="48" height="48" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round">
      <circle cx="12" cy="12" r="10" />
      <path d={PATHS[kind]} />
    </svg>
  );
}

/** The last screen: done, or why paying is no longer possible. */
export function EndState({ kind, name, t }: { kind: End; name: string; t: Translate }) {
  return (
    <section class={`end ${kind === 'done' ? 'ok' : 'bad'}`} data-testid={`end-${kind}`}>
      <Icon kind={kind} />
      <h2>{t(`${kind}_title`)}</h2>
      <p class="muted">{t(`${kind}_body`, { name })}</p>
    </section>
  );
}
