import { describe, expect, it } from 'vitest';
import {
  assetCode, awaitsPayment, formatAmount, formatCountdown, isFinal, isPartial, isPreparing, isQuoteExpired, msLeft, nextRequoteAt, phaseOf,
  selectedOptionId, sessionIdOf, stepIndex, toUnits,
} from '../src/state.js';
import type { FundingOption } from '../src/types.js';

describe('status → step', () => {
  it.each([
    ['CREATED', 'awaiting'], ['AWAITING_PAYMENT', 'awaiting'], ['PARTIALLY_FUNDED', 'awaiting'], ['PAYMENT_DETECTED', 'received'],
    ['PAYMENT_CONFIRMED', 'confirming'], ['ROUTING', 'confirming'], ['SETTLING', 'confirming'], ['SETTLED', 'done'], ['CREDITED', 'done'],
  ] as const)('%s is the %s step', (status, step) => {
    expect(phaseOf(status)).toEqual({ kind: 'step', step });
  });

  it.each([['EXPIRED', 'expired'], ['FAILED', 'failed'], ['REFUND_PENDING', 'refunded'], ['REFUNDED', 'refunded'], ['CANCELLED', 'cancelled']] as const)(
    '%s ends the checkout as %s', (status, kind) => {
      expect(phaseOf(status).kind).toBe(kind);
      expect(isFinal(status)).toBe(true);
      expect(awaitsPayment(status)).toBe(false);
    },
  );

  it('is preparing while the intent is CREATED or has no deposit address yet', () => {
    const view = (status: string, address: string | null) => ({ status, funding_instructions: { deposit: { address, type: 'account' } } }) as never;
    expect(isPreparing(view('CREATED', null))).toBe(true);
    expect(isPreparing(view('AWAITING_PAYMENT', null))).toBe(true);
    expect(isPreparing(view('AWAITING_PAYMENT', 'GABC'))).toBe(false);
  });

  it('orders the steps and keeps awaiting while partially funded', () => {
    expect([stepIndex('awaiting'), stepIndex('received'), stepIndex('confirming'), stepIndex('done')]).toEqual([0, 1, 2, 3]);
    expect(awaitsPayment('PARTIALLY_FUNDED')).toBe(true);
    expect(isFinal('PAYMENT_DETECTED')).toBe(false);
    expect(isFinal('CREDITED')).toBe(true);
  });
});

describe('amounts stay exact decimal strings', () => {
  it('compares in integer stroops, beyond float precision', () => {
    expect(toUnits('922337203685.4775807')).toBe(9223372036854775807n);
    expect(toUnits('0.1') + toUnits('0.2')).toBe(toUnits('0.3'));
    expect(toUnits('25')).toBe(250_000_000n);
  });

  it('shows the remainder only after a partial payment that left something due', () => {
    expect(isPartial({ status: 'PARTIALLY_FUNDED', received_amount: '10.0000000', remaining_amount: '15.0000000' })).toBe(true);
    expect(isPartial({ status: 'AWAITING_PAYMENT', received_amount: '0.0000000', remaining_amount: '25.0000000' })).toBe(false);
    expect(isPartial({ status: 'PAYMENT_DETECTED', received_amount: '25.0000000', remaining_amount: '0.0000000' })).toBe(false);
    expect(isPartial({ status: 'PARTIALLY_FUNDED', received_amount: '0.0000001', remaining_amount: '24.9999999' })).toBe(true);
  });

  it('formats for display without rounding away digits', () => {
    expect(formatAmount('25.0000000')).toBe('25.00');
    expect(formatAmount('24.9999999')).toBe('24.9999999');
    expect(formatAmount('1234567.5000000')).toBe('1,234,567.50');
    expect(formatAmount('3')).toBe('3.00');
  });

  it('reads asset codes in every form the API uses', () => {
    expect(assetCode('stellar:USDC')).toBe('USDC');
    expect(assetCode('USDC:GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5')).toBe('USDC');
    expect(assetCode('XLM')).toBe('XLM');
  });
});

describe('countdowns', () => {
  const now = Date.parse('2026-11-22T12:00:00.000Z');
  it('never goes below zero and rounds up', () => {
    expect(msLeft('2026-11-22T11:59:00.000Z', now)).toBe(0);
    expect(formatCountdown(msLeft('2026-11-22T12:00:59.200Z', now))).toBe('1:00');
    expect(formatCountdown(4_000)).toBe('0:04');
    expect(formatCountdown(3_723_000)).toBe('1:02:03');
    expect(formatCountdown(0)).toBe('0:00');
  });
});

describe('re-quote', () => {
  const option = (id: string, asset: string, expires: string): FundingOption => ({
    id, source: { rail: 'stellar', asset }, pay_amount: { amount: '1.0000000', asset: `stellar:${asset}` },
    receive_amount_min: { amount: '1.0000000', asset: 'stellar:USDC' }, estimated_duration_seconds: 5, expires_at: expires, fees: [],
  });
  const options = [option('qt_a', 'USDC', '2026-11-22T12:01:00.000Z'), option('qt_b', 'XLM', '2026-11-22T12:00:30.000Z')];

  it('re-prices when the earliest quote lapses', () => {
    expect(nextRequoteAt(options)).toBe(Date.parse('2026-11-22T12:00:30.000Z'));
    expect(nextRequoteAt([])).toBeNull();
    expect(isQuoteExpired(options[1]!, Date.parse('2026-11-22T12:00:30.000Z'))).toBe(true);
    expect(isQuoteExpired(options[0]!, Date.parse('2026-11-22T12:00:30.000Z'))).toBe(false);
  });

  it('selects the accepted quote, else the option in the asset the intent asks for', () => {
    expect(selectedOptionId(options, { quote_id: 'qt_b', source: { network: 'stellar', asset: 'XLM', amount: '1' } })).toBe('qt_b');
    expect(selectedOptionId(options, { quote_id: null, source: { network: 'stellar', asset: 'USDC', amount: '1' } })).toBe('qt_a');
    expect(selectedOptionId(options, { quote_id: 'qt_gone', source: { network: 'stellar', asset: 'EURC', amount: '1' } })).toBeNull();
  });
});

describe('session token', () => {
  it('reads the session id from the subject claim', () => {
    const payload = btoa(JSON.stringify({ sub: 'cst_01ABC', fi: 'fi_01XYZ' })).replace(/=+$/, '');
    expect(sessionIdOf(`eyJhbGciOiJIUzI1NiJ9.${payload}.sig`)).toBe('cst_01ABC');
    expect(sessionIdOf('not-a-jwt')).toBeNull();
  });
});
