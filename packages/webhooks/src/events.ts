import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];

/** Every event Fundkit delivers; narrow it on `type` (a discriminated union). Generated from spec/openapi.yaml. */
export type WebhookEvent = Schemas['WebhookEvent'];
/** `payment.pending`, `payment.processing`, `payment.completed`, `payment.failed`. */
export type PaymentEvent = Schemas['PaymentEvent'];
/** `payout.initiated`, `payout.completed`, `payout.failed`. */
export type PayoutEvent = Schemas['PayoutEvent'];
/** `invoice.paid`, `invoice.overdue`. */
export type InvoiceEvent = Schemas['InvoiceEvent'];
/** `refund.created`, `refund.completed`, `refund.failed`. */
export type RefundEvent = Schemas['RefundEvent'];
/** `webhook.test`, sent by the endpoint's test operation. */
export type TestEvent = Schemas['TestEvent'];

/** Every event type string, e.g. `'payment.completed'`. */
export type WebhookEventType = WebhookEvent['type'];

/**
 * The event whose `type` is `T`: `WebhookEventOf<'payment.completed'>` is a `PaymentEvent` with
 * `type: 'payment.completed'`. Intersecting (not `Extract`) keeps variants that cover several types.
 */
export type WebhookEventOf<T extends WebhookEventType> = WebhookEvent extends infer Variant
  ? Variant extends { type: infer VariantType }
    ? T extends VariantType
      ? Variant & { type: T }
      : never
    : never
  : never;

/**
 * Every event type, for registering endpoints or validating configuration. The `satisfies`
 * clauses fail to compile when the spec adds or removes a type, so this list cannot drift.
 */
export const WEBHOOK_EVENT_TYPES = [
  'payment.pending',
  'payment.processing',
  'payment.completed',
  'payment.failed',
  'payout.initiated',
  'payout.completed',
  'payout.failed',
  'invoice.paid',
  'invoice.overdue',
  'refund.created',
  'refund.completed',
  'refund.failed',
  'webhook.test',
] as const satisfies readonly WebhookEventType[];

/** Compiles only when `Unlisted` is `never`, i.e. the list above names every type of the spec. */
type AssertEveryTypeListed<Unlisted extends never> = Unlisted;
export type _UnlistedEventTypes = AssertEveryTypeListed<
  Exclude<WebhookEventType, (typeof WEBHOOK_EVENT_TYPES)[number]>
>;

/**
 * Narrows an event to one type or several.
 * @example
 * ```ts
 * if (isEventType(event, 'payment.completed')) fulfil(event.data.payment_id);
 * if (isEventType(event, ['refund.completed', 'refund.failed'])) closeRefund(event.data);
 * ```
 */
export function isEventType<T extends WebhookEventType>(
  event: WebhookEvent,
  type: T | readonly T[],
): event is WebhookEventOf<T> {
  return typeof type === 'string' ? event.type === type : (type as readonly string[]).includes(event.type);
}

/** True when `type` is an event type this version of the package knows. */
export function isKnownEventType(type: string): type is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
}
