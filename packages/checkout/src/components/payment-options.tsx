import type { Translate } from '../i18n.js';
import { assetCode, formatAmount, isConversion, selectedOptionId } from '../state.js';
import type { FundingOption, PublicFundingIntent } from '../types.js';
import { Countdown } from './countdown.js';

interface Props {
  options: FundingOption[];
  view: PublicFundingIntent;
  now: number;
  note: 'requoting' | 'refreshed' | null;
  accepting: string | null;
  onPick(id: string): void;
  t: Translate;
}

/** One radio per way to pay; picking one accepts its quote, and prices refresh when they lapse. */
export function PaymentOptions({ options, view, now, note, accepting, onPick, t }: Props) {
  if (options.length < 2) return null;
  const selected = selectedOptionId(options, view);
  return (
    <section>
      <fieldset class="opts" aria-busy={accepting ? 'true' : 'false'}>
        <legend class="muted" style="margin-bottom:6px">{t('payWith')}</legend>
        {options.map((o) => (
          <label key={o.id} class={`opt ${o.id === selected ? 'sel' : ''}`} data-testid="option">
            <input type="radio" name="fk-option" checked={o.id === selected} disabled={!!accepting} onChange={() => onPick(o.id)} />
            <span class="grow">
              <strong>{`${formatAmount(o.pay_amount.amount)} ${assetCode(o.pay_amount.asset)}`}</strong>
            </span>
            {/* the intent's own asset has no price to expire: no countdown beside it */}
            <span class="muted">{accepting === o.id ? t('accepting') : isConversion(o) && <Countdown until={o.expires_at} now={now} t={t} label="priceValid" />}</span>
          </label>
        ))}
      </fieldset>
      {note && <p class="muted" role="status" data-testid="quote-note" style="margin-top:6px">{t(note === 'requoting' ? 'requoting' : 'quoteRefreshed')}</p>}
    </section>
  );
}
