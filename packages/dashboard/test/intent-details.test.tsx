import { render } from 'preact';
import { describe, expect, it } from 'vitest';
import type { Intent, Settlement } from '../src/app-api.js';
import { SettlementPanel } from '../src/intents/settlement-panel.js';
import { timelineOf } from '../src/intents/timeline.js';

const intent = { id: 'fi_1', created_at: '2026-12-06T00:00:00Z' } as Intent;
const event = (type: string, at: string, data: Record<string, unknown>) => ({ id: `evt_${at}`, type, created_at: `2026-12-06T00:00:0${at}Z`, data: { funding_intent_id: 'fi_1', ...data } });

describe("an intent's page", () => {
  it("the timeline keeps a settlement's and a refund's states apart from the intent's", () => {
    const labels = timelineOf(intent, [
      event('payment.processing', '1', { status: 'SETTLING' }),
      event('payout.initiated', '2', { settlement_id: 'stl_1', status: 'SUBMITTED' }),
      event('payment.completed', '3', { status: 'CREDITED' }),
      event('refund.created', '4', { refund_id: 'rf_1', status: 'PENDING' }),
    ]).map((s) => s.label);
    expect(labels).toEqual(['CREATED', 'SETTLING (payment.processing)', 'payout.initiated: settlement SUBMITTED', 'CREDITED (payment.completed)', 'refund.created: refund PENDING']);
  });

  it("the settlement's explorer link opens the transfer, not the payment that funded it", () => {
    const root = document.createElement('div');
    document.body.replaceChildren(root);
    const settlement = { id: 'stl_1', funding_intent_id: 'fi_1', stellar_network: 'testnet', status: 'CONFIRMED', transaction_hash: 'a'.repeat(64), transfer_transaction_hash: 'b'.repeat(64), destination: {}, confirmed_at: null, created_at: '' } as Settlement;
    render(<SettlementPanel settlement={settlement} />, root);
    const link = [...root.querySelectorAll('a')].find((a) => a.textContent === 'View on explorer')!;
    expect(link.getAttribute('href')).toContain('b'.repeat(64));
  });
});
