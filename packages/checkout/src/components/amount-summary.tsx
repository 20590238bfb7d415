import type { Translate } from '../i18n.js';
import { assetCode, formatAmount, isPartial } from '../state.js';
import type { PublicFundingIntent } from '../types.js';

export function AmountSummary({ view, t }: { view: PublicFundingIntent; t: Translate }) {
  const asset = assetCode(view.requirement.asset);
  const paying = assetCode(view.source.asset);
  return (
    <section aria-label={t('amountDue')}>
      <p class="muted">{t('amountDue')}</p>
      <p class="amount" data-testid="amount">
        {formatAmount(view.requirement.amount)}
        <small>{asset}</small>
      </p>
      {isPartial(view) && (
        <p class="notice" data-testid="remaining">
          {t('receivedSoFar', { received: formatAmount(view.funding_instructions.received_amount), remaining: formatAmount(view.remaining_amount), asset: paying })}
        </p>
      )}
    </section>
  );
}
