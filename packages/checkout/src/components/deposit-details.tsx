import type { Translate } from '../i18n.js';
import { assetCode } from '../state.js';
import type { PublicFundingIntent } from '../types.js';
import { CopyButton } from './copy-button.js';
import { QrCode } from './qr-code.js';

/** What to send where, each with a copy button, and the SEP-7 QR for wallet apps. */
export function DepositDetails({ view, t }: { view: PublicFundingIntent; t: Translate }) {
  const instructions = view.funding_instructions;
  // null only while the address is being prepared, when <Preparing> shows instead
  const address = instructions.deposit.address ?? '';
  const code = assetCode(instructions.asset.code ?? view.source.asset);
  const uri = (instructions as { payment_uri?: string }).payment_uri;
  return (
    <section>
      <p class="muted">{t('send')}</p>
      <div class="row">
        <span class="field" data-testid="pay-amount">{`${view.remaining_amount} ${code}`}</span>
        <CopyButton text={view.remaining_amount} label={t('copyAmount')} t={t} />
      </div>
      <p class="muted" style="margin-top:10px">{t('toAddress')}</p>
      <div class="row">
        <span class="field" data-testid="address">{address}</span>
        <CopyButton text={address} label={t('copyAddress')} t={t} />
      </div>
      {instructions.asset.issuer && <p class="muted" style="margin-top:6px;word-break:break-all">{`${t('issuer')}: ${instructions.asset.issuer}`}</p>}
      {uri && (
        <div class="qr">
          <QrCode data={uri} label={t('scan')} />
          <span class="muted">{t('scan')}</span>
          <a href={uri}>{t('openWallet')}</a>
        </div>
      )}
    </section>
  );
}
