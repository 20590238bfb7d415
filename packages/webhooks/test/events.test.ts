import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  isEventType,
  isKnownEventType,
  WEBHOOK_EVENT_TYPES,
  type PaymentEvent,
  type RefundEvent,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookEventType,
} from '../src/index.js';
import { paymentCompleted } from './helpers/fixtures.js';

describe('typed events', () => {
  it('narrows with isEventType to one type', () => {
    const event: WebhookEvent = paymentCompleted;
    if (!isEventType(event, 'payment.completed')) expect.unreachable();
    expectTypeOf(event.type).toEqualTypeOf<'payment.completed'>();
    // Fails to compile if the spec's EventBase.data generates as Record<string, never> (every field never).
    expectTypeOf(event.data.settlement_amount_decimal).toEqualTypeOf<string>();
    expectTypeOf(event.data.stellar_txn_hash).toEqualTypeOf<string | null>();
    expect(event.data.payment_id).toBe('fi_01JD0000000000000000000000');
  });

  it('narrows with isEventType to several types', () => {
    const event: WebhookEvent = paymentCompleted;
    expect(isEventType(event, ['refund.completed', 'refund.failed'])).toBe(false);
    if (isEventType(event, ['payment.completed', 'payment.failed'])) {
      expectTypeOf(event).toExtend<PaymentEvent>();
      expectTypeOf(event.type).toEqualTypeOf<'payment.completed' | 'payment.failed'>();
    }
  });

  it('narrows with a switch on type (a discriminated union)', () => {
    const event = paymentCompleted as WebhookEvent;
    switch (event.type) {
      case 'refund.failed':
        expectTypeOf(event).toEqualTypeOf<RefundEvent>();
        break;
      case 'payment.completed':
        expectTypeOf(event).toEqualTypeOf<PaymentEvent>();
        break;
    }
  });

  it('WebhookEventOf picks the variant of a type', () => {
    expectTypeOf<WebhookEventOf<'webhook.test'>['type']>().toEqualTypeOf<'webhook.test'>();
    expectTypeOf<WebhookEventOf<'invoice.paid'>['object']>().toEqualTypeOf<'event'>();
  });

  it('WEBHOOK_EVENT_TYPES lists every type once, including refund.failed and webhook.test', () => {
    expectTypeOf<(typeof WEBHOOK_EVENT_TYPES)[number]>().toEqualTypeOf<WebhookEventType>();
    expect(new Set(WEBHOOK_EVENT_TYPES).size).toBe(WEBHOOK_EVENT_TYPES.length);
    expect(WEBHOOK_EVENT_TYPES).toEqual(expect.arrayContaining(['refund.failed', 'webhook.test', 'invoice.overdue']));
    expect(isKnownEventType('payout.failed')).toBe(true);
    expect(isKnownEventType('payment.refunded')).toBe(false);
  });
});
