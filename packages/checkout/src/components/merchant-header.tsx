import type { Translate } from '../i18n.js';
import type { PublicFundingIntent } from '../types.js';

export function MerchantHeader({ view, t }: { view: PublicFundingIntent; t: Translate }) {
  const { name, logo_url } = view.application;
  return (
    <div class="head">
      {logo_url ? <img class="logo" src={logo_url} alt="" /> : <span class="logo logo-fallback" aria-hidden="true">{name.slice(0, 1).toUpperCase()}</span>}
      <div>
        <p class="muted">{t('payTo')}</p>
        <h2>{name}</h2>
      </div>
      {!view.livemode && <span class="badge">{t('testmode')}</span>}
    </div>
  );
}
