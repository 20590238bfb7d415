/** What an incoming payment does to its intent (DESIGN §4), as a pure function. */
import { minBig } from '../lib/money.js';
import type { FundingIntentRecord } from '../records/funding-intents.js';
import type { FundingIntentStatus } from '../records/intent-transitions.js';
import { sameAsset, type AssetRef } from '../stellar/index.js';

export type Classification =
  | { apply: true; applied: bigint }
  | { apply: false; code: 'WRONG_ASSET' | 'EXPIRED_INTENT' | 'DUPLICATE_PAYMENT' | 'OVERPAYMENT'; message: string };

/** Still collecting money. */
const OPEN: FundingIntentStatus[] = ['AWAITING_PAYMENT', 'PARTIALLY_FUNDED'];
/** The requirement was met and is on its way: more money is a duplicate or surplus. */
const MET: FundingIntentStatus[] = ['PAYMENT_DETECTED', 'PAYMENT_CONFIRMED', 'ROUTING', 'SETTLING', 'SETTLED'];

export function classify(intent: FundingIntentRecord, asset: AssetRef, amount: bigint, expected: AssetRef): Classification {
  if (!sameAsset(asset, expected)) {
    return { apply: false, code: 'WRONG_ASSET', message: `the intent takes ${expected.code}${expected.issuer ? `:${expected.issuer}` : ''}, not this asset` };
  }
  if (OPEN.includes(intent.status)) return { apply: true, applied: minBig(amount, intent.requirement_amount - intent.received_amount) };
  if (MET.includes(intent.status)) {
    return amount >= intent.requirement_amount
      ? { apply: false, code: 'DUPLICATE_PAYMENT', message: 'a second full payment of an intent already paid' }
      : { apply: false, code: 'OVERPAYMENT', message: 'received after the requirement was met' };
  }
  return { apply: false, code: 'EXPIRED_INTENT', message: `received while the intent is ${intent.status}` };
}
