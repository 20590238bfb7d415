import { useState } from 'preact/hooks';
import type { Translate } from '../i18n.js';
import type { PublicFundingIntent } from '../types.js';
import type { WalletModule } from '../wallet-loader.js';

interface Props {
  view: PublicFundingIntent;
  baseUrl: string;
  loadWallet: () => Promise<WalletModule>;
  t: Translate;
}

/** Freighter: the SDK chunk is fetched on click, never with the widget itself. */
export function WalletButton({ view, baseUrl, loadWallet, t }: Props) {
  const [state, setState] = useState<'idle' | 'busy' | 'sent'>('idle');
  const [message, setMessage] = useState<string | null>(null);
  const pay = async () => {
    setState('busy');
    setMessage(null);
    try {
      const wallet = await loadWallet();
      const i = view.funding_instructions;
      await wallet.payWithFreighter({
        baseUrl, stellarNetwork: i.stellar_network, destination: i.deposit.address ?? '', amount: view.remaining_amount,
        assetCode: i.asset.code, assetIssuer: i.asset.issuer ?? null,
      });
      setState('sent');
    } catch (error) {
      setState('idle');
      const code = (error as { code?: string }).code;
      setMessage(code === 'not_installed' ? t('walletMissing') : error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <section>
      <button type="button" class="btn primary" onClick={() => void pay()} disabled={state !== 'idle'} data-testid="wallet">
        {state === 'busy' ? t('walletBusy') : t('walletPay')}
      </button>
      {state === 'sent' && <p class="muted" role="status">{t('walletSent')}</p>}
      {message && <p class="muted" role="alert" style="margin-top:6px">{message}</p>}
    </section>
  );
}
