/**
 * What an accepted quote changes on its intent (columns added by migration 012), and the
 * intent as the payer must now pay it: in the quote's source asset, for its source amount.
 */
import type { Db } from '../../db/connection.js';
import type { FundingIntentRecord } from '../funding-intents/repo.js';

export interface IntentSource {
  source_asset: string | null;
  source_amount: bigint | null;
  route_type: 'DIRECT_STELLAR' | 'STELLAR_PATH_PAYMENT';
  quote_id: string | null;
}

export type LinkedIntent = FundingIntentRecord & IntentSource;

export class QuoteIntentsRepo {
  constructor(private readonly db: Db) {}

  findById(id: string): LinkedIntent | undefined {
    return this.db.prepare('SELECT * FROM funding_intents WHERE id = ?').safeIntegers(true).get(id) as LinkedIntent | undefined;
  }

  /** Back to paying the requirement itself (the accepted quote's lock ran out). */
  clearSource(id: string, at: string): void {
    this.db.prepare("UPDATE funding_intents SET source_asset = NULL, source_amount = NULL, route_type = 'DIRECT_STELLAR', quote_id = NULL, updated_at = ? WHERE id = ?").run(at, id);
  }

  setSource(id: string, source: { asset: string; amount: bigint; routeType: IntentSource['route_type']; quoteId: string }, at: string): void {
    this.db.prepare('UPDATE funding_intents SET source_asset = ?, source_amount = ?, route_type = ?, quote_id = ?, updated_at = ? WHERE id = ?')
      .run(source.asset, source.amount, source.routeType, source.quoteId, at, id);
  }
}

/** The asset and total the payer sends: the accepted quote's source, else the requirement itself. */
export function payable(intent: FundingIntentRecord): { asset: string; amount: bigint; converted: boolean } {
  const linked = intent as Partial<IntentSource> & FundingIntentRecord;
  if (linked.source_asset && linked.source_amount !== null && linked.source_amount !== undefined) {
    return { asset: linked.source_asset, amount: BigInt(linked.source_amount), converted: linked.route_type === 'STELLAR_PATH_PAYMENT' };
  }
  return { asset: intent.requirement_asset, amount: intent.requirement_amount, converted: false };
}

/** The intent as the observer must classify payments to it: requirement = what the payer sends. */
export function asPayable<T extends FundingIntentRecord>(intent: T): T {
  const target = payable(intent);
  return { ...intent, requirement_asset: target.asset, requirement_amount: target.amount };
}
