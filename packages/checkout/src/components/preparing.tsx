import type { Translate } from '../i18n.js';

/** The deposit account is being created on chain: no address to pay yet; the live status brings it. */
export function Preparing({ t }: { t: Translate }) {
  return (
    <section data-testid="preparing" role="status" aria-live="polite" style="margin-top:12px">
      <p>{t('preparing')}</p>
      <p class="muted">{t('preparingBody')}</p>
    </section>
  );
}
