/**
 * What an accepted quote changes on its intent (columns added by migration 012), and the
 * intent as the payer must now pay it: in the quote's source asset, for its source amount.
 */
import { prepared, sqlOf, type Sql, type SqlSource } from '../db/sql.js';
import type { FundingIntentRecord } from './funding-intents.js';

export interface IntentSource {
  source_asset: string | null;
  source_amount: bigint | null;
  route_type: 'DIRECT_STELLAR' | 'STELLAR_PATH_PAYMENT';
  quote_id: string | null;
}

/** `deposit_type`: a `muxed` intent is paid in its own asset only (its collection account holds that one asset). */
export type LinkedIntent = FundingIntentRecord & IntentSource & { deposit_type: 'account' | 'muxed' | null };

const BY_ID = prepared<LinkedIntent, { id: string }>((k, p) => k.selectFrom('funding_intents as fi')
  .leftJoin('deposit_accounts as da', 'da.id', 'fi.deposit_account_id').selectAll('fi').select('da.deposit_type').where('fi.id', '=', p('id')), { bigint: true });

const CLEAR_SOURCE = prepared<never, { id: string; at: string }>((k, p) =>
  k.updateTable('funding_intents').set({ source_asset: null, source_amount: null, route_type: 'DIRECT_STELLAR', quote_id: null, updated_at: p('at') })
    .where('id', '=', p('id')));

type SourceArgs = { id: string; asset: string; amount: bigint; routeType: IntentSource['route_type']; quoteId: string; at: string };
const SET_SOURCE = prepared<never, SourceArgs>((k, p) =>
  k.updateTable('funding_intents').set({ source_asset: p('asset'), source_amount: p('amount'), route_type: p('routeType'), quote_id: p('quoteId'), updated_at: p('at') })
    .where('id', '=', p('id')));

// Both updates leave row_version alone: migration 019's trigger gives the row a new version.
export class QuoteIntentsRepo {
  private readonly sql: Sql;

  constructor(db: SqlSource) {
    this.sql = sqlOf(db);
  }

  async findById(id: string): Promise<LinkedIntent | undefined> {
    return this.sql.get(BY_ID, { id });
  }

  /** Back to paying the requirement itself (the accepted quote's lock ran out). */
  async clearSource(id: string, at: string): Promise<void> {
    await this.sql.run(CLEAR_SOURCE, { id, at });
  }

  async setSource(id: string, source: { asset: string; amount: bigint; routeType: IntentSource['route_type']; quoteId: string }, at: string): Promise<void> {
    await this.sql.run(SET_SOURCE, { id, asset: source.asset, amount: source.amount, routeType: source.routeType, quoteId: source.quoteId, at });
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
