/** Funding intent states and the only transitions allowed between them (DESIGN §4). */
export const FUNDING_INTENT_STATUSES = [
  'CREATED', 'AWAITING_PAYMENT', 'PARTIALLY_FUNDED', 'PAYMENT_DETECTED', 'PAYMENT_CONFIRMED', 'ROUTING',
  'SETTLING', 'SETTLED', 'CREDITED', 'FAILED', 'REFUND_PENDING', 'REFUNDED', 'EXPIRED', 'CANCELLED',
] as const;

export type FundingIntentStatus = (typeof FUNDING_INTENT_STATUSES)[number];

const TRANSITIONS: Record<FundingIntentStatus, FundingIntentStatus[]> = {
  CREATED: ['AWAITING_PAYMENT', 'CANCELLED', 'FAILED'],
  AWAITING_PAYMENT: ['PARTIALLY_FUNDED', 'PAYMENT_DETECTED', 'EXPIRED', 'CANCELLED'],
  // REFUND_PENDING: the payer gave up and everything received is being returned (DESIGN §4)
  PARTIALLY_FUNDED: ['PARTIALLY_FUNDED', 'PAYMENT_DETECTED', 'EXPIRED', 'REFUND_PENDING'],
  PAYMENT_DETECTED: ['PAYMENT_CONFIRMED', 'FAILED'],
  PAYMENT_CONFIRMED: ['ROUTING', 'SETTLING', 'FAILED'],
  ROUTING: ['SETTLING', 'FAILED'],
  SETTLING: ['SETTLED', 'FAILED'],
  SETTLED: ['CREDITED'],
  CREDITED: [],
  FAILED: ['REFUND_PENDING'],
  EXPIRED: ['REFUND_PENDING'],
  REFUND_PENDING: ['REFUNDED', 'FAILED'],
  REFUNDED: [],
  CANCELLED: [],
};

export function canTransition(from: FundingIntentStatus, to: FundingIntentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function assertTransition(from: FundingIntentStatus, to: FundingIntentStatus): void {
  if (!canTransition(from, to)) throw new Error(`illegal funding intent transition ${from} → ${to}`);
}

/** The webhook event a transition into `to` emits, if any (DESIGN §8). */
export function eventFor(to: FundingIntentStatus): string | null {
  switch (to) {
    case 'AWAITING_PAYMENT': return 'payment.pending';
    case 'PAYMENT_CONFIRMED': return 'payment.processing';
    case 'SETTLED': return 'payment.completed';
    case 'FAILED':
    case 'EXPIRED': return 'payment.failed';
    case 'CREDITED': return 'invoice.paid';
    default: return null;
  }
}
