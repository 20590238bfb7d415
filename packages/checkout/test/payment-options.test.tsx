import { render } from 'preact';
import { describe, expect, it } from 'vitest';
import { PaymentOptions } from '../src/components/payment-options.js';
import { translator } from '../src/i18n.js';
import type { FundingOption, PublicFundingIntent } from '../src/types.js';

const NOW = Date.now();
const option = (id: string, asset: string, amount: string): FundingOption => ({
  id, source: { rail: 'stellar', asset }, pay_amount: { amount, asset: `stellar:${asset}` },
  receive_amount_min: { amount: '25.0000000', asset: 'stellar:USDC' }, estimated_duration_seconds: 5, expires_at: new Date(NOW + 45_500).toISOString(), fees: [],
});

describe('PaymentOptions', () => {
  it('shows "price valid for" beside a conversion only: the intent\'s own asset has no price to expire', () => {
    const host = document.createElement('div');
    const view = { quote_id: null, source: { network: 'stellar', asset: 'USDC', amount: '25.0000000' } } as unknown as PublicFundingIntent;
    render(<PaymentOptions options={[option('qt_usdc', 'USDC', '25.0000000'), option('qt_xlm', 'XLM', '101.2000000')]} view={view}
      now={NOW} note={null} accepting={null} onPick={() => undefined} t={translator('en')} />, host);
    const [direct, conversion] = [...host.querySelectorAll('[data-testid=option]')];
    expect(direct!.textContent).toContain('25.00 USDC');
    expect(direct!.querySelector('[data-testid^=countdown]')).toBeNull();
    expect(direct!.textContent).not.toMatch(/valid for/i);
    expect(conversion!.querySelector('[data-testid=countdown-priceValid]')?.textContent).toMatch(/Price valid for 0:4\d/);
  });
});
