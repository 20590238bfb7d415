import type { FundingIntentStatus, FundingOption, PublicFundingIntent } from './types.js';

/** The payer's progress bar. */
export const STEPS = ['awaiting', 'received', 'confirming', 'done'] as const;
export type Step = (typeof STEPS)[number];

/** What the widget shows for an intent: a step of the happy path, or an end that is not it. */
export type Phase = { kind: 'step'; step: Step } | { kind: 'expired' } | { kind: 'failed' } | { kind: 'refunded' } | { kind: 'cancelled' };

const PHASES: Record<FundingIntentStatus, Phase> = {
  CREATED: { kind: 'step', step: 'awaiting' },
  AWAITING_PAYMENT: { kind: 'step', step: 'awaiting' },
  // part of the money is in, the rest is still awaited: the payer must act again
  PARTIALLY_FUNDED: { kind: 'step', step: 'awaiting' },
  PAYMENT_DETECTED: { kind: 'step', step: 'received' },
  PAYMENT_CONFIRMED: { kind: 'step', step: 'confirming' },
  ROUTING: { kind: 'step', step: 'confirming' },
  SETTLING: { kind: 'step', step: 'confirming' },
  SETTLED: { kind: 'step', step: 'done' },
  CREDITED: { kind: 'step', step: 'done' },
  FAILED: { kind: 'failed' },
  REFUND_PENDING: { kind: 'refunded' },
  REFUNDED: { kind: 'refunded' },
  EXPIRED: { kind: 'expired' },
  CANCELLED: { kind: 'cancelled' },
};

export function phaseOf(status: FundingIntentStatus): Phase {
  return PHASES[status] ?? { kind: 'failed' };
}

export function stepIndex(step: Step): number {
  return STEPS.indexOf(step);
}

/** The payer has nothing more to do: done, or an end that is not it. */
export function isFinal(status: FundingIntentStatus): boolean {
  const phase = phaseOf(status);
  return phase.kind !== 'step' || phase.step === 'done';
}

/**
 * The deposit account is still being created on chain (the server's pool of ready accounts was
 * empty): there is no address to pay yet; it arrives with the next status (AWAITING_PAYMENT).
 */
export function isPreparing(intent: Pick<PublicFundingIntent, 'status' | 'funding_instructions'>): boolean {
  return intent.status === 'CREATED' || !intent.funding_instructions.deposit.address;
}

/** Still waiting for (more) money, so instructions, options and the expiry clock matter. */
export function awaitsPayment(status: FundingIntentStatus): boolean {
  const phase = phaseOf(status);
  return phase.kind === 'step' && phase.step === 'awaiting';
}

// ---- amounts: exact decimal strings, compared as integer stroops (never floats) ----

const SCALE = 7;

export function toUnits(amount: string): bigint {
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(amount.trim());
  if (!match) throw new Error(`not a decimal amount: ${amount}`);
  const [, sign, whole = '', fraction = ''] = match;
  const units = BigInt((whole || '0') + fraction.slice(0, SCALE).padEnd(SCALE, '0'));
  return sign ? -units : units;
}

export function isPositive(amount: string): boolean {
  return toUnits(amount) > 0n;
}

/** A partial payment arrived and a remainder is still due. */
export function isPartial(intent: Pick<PublicFundingIntent, 'received_amount' | 'remaining_amount' | 'status'>): boolean {
  return awaitsPayment(intent.status) && isPositive(intent.received_amount) && isPositive(intent.remaining_amount);
}

/** Display form: trailing zeros dropped down to `minFraction` digits; "25.5000000" → "25.50". */
export function formatAmount(amount: string, minFraction = 2): string {
  const [whole = '0', fraction = ''] = amount.split('.');
  let digits = fraction.replace(/0+$/, '');
  if (digits.length < minFraction) digits = digits.padEnd(minFraction, '0');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return digits ? `${grouped}.${digits}` : grouped;
}

/** "USDC:GA…" or "stellar:USDC" → "USDC". */
export function assetCode(asset: string): string {
  const afterNamespace = asset.includes(':') && /^[a-z]+:/.test(asset) ? asset.slice(asset.indexOf(':') + 1) : asset;
  return afterNamespace.split(':')[0] ?? afterNamespace;
}

// ---- clocks ----

export function msLeft(expiresAt: string, now: number): number {
  return Math.max(0, Date.parse(expiresAt) - now);
}

/** "4:05", "1:02:03"; rounds up so "0:00" shows only when it is really over. */
export function formatCountdown(ms: number): string {
  const total = Math.ceil(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

// ---- quotes ----

export function isQuoteExpired(option: Pick<FundingOption, 'expires_at'>, now: number): boolean {
  return msLeft(option.expires_at, now) === 0;
}

/** The options need pricing again as soon as the earliest one lapses. */
export function nextRequoteAt(options: Pick<FundingOption, 'expires_at'>[]): number | null {
  if (options.length === 0) return null;
  return Math.min(...options.map((o) => Date.parse(o.expires_at)));
}

/** The option matching what the payer is asked to send now (accepted quote, or the intent's own asset). */
/** A conversion has a price that lapses; paying the intent's own asset has none (no countdown to show). */
export function isConversion(option: Pick<FundingOption, 'pay_amount' | 'receive_amount_min'>): boolean {
  return assetCode(option.pay_amount.asset) !== assetCode(option.receive_amount_min.asset);
}

export function selectedOptionId(options: FundingOption[], intent: Pick<PublicFundingIntent, 'quote_id' | 'source'>): string | null {
  if (intent.quote_id && options.some((o) => o.id === intent.quote_id)) return intent.quote_id;
  const direct = options.find((o) => assetCode(o.source.asset) === assetCode(intent.source.asset));
  return direct?.id ?? null;
}

/** The subject claim of a session token, i.e. the session id (read, not verified: the server verifies). */
export function sessionIdOf(token: string): string | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const sub = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === 'string' ? sub : null;
  } catch {
    return null;
  }
}
