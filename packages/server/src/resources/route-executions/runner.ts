/**
 * Runs route executions: PRICING (re-read the path) → SUBMITTING (the signed path payment is
 * stored before submission) → CONFIRMING (re-read from the ledger) → COMPLETED. A price that
 * moved beyond the slippage (op_over_source_max) PAUSES the execution for a resume; anything else
 * FAILS it for a retry. Network errors throw: the worker retries with backoff.
 */
import { isoNow } from '../../lib/time.js';
import type { DepositKeys } from '../../pipeline/deposit-keys.js';
import type { TreasurySigner, TxOutcome } from '../../pipeline/tx.js';
import { priceReceive, type AssetCode } from '../../pricing/price.js';
import { parseAssetKey, type StellarNetwork } from '../../stellar/index.js';
import type { Environment } from '../../domain/environment.js';
import type { FundingIntentStatus } from '../../records/intent-transitions.js';
import { routeInfo, type QuotesRepo } from '../../records/quotes.js';
import { sourceSpent, submitConversion } from './convert.js';
import type { ExecutionRecord, ExecutionsRepo } from '../../records/route-executions.js';
import type { Sql } from '../../db/sql.js';

export interface RunnerDeps {
  sql: Sql;
  executions: ExecutionsRepo;
  quotes: QuotesRepo;
  network: (environment: Environment) => StellarNetwork | null;
  signer: () => TreasurySigner;
  depositKeys: () => DepositKeys;
  /** the pipeline's state machine: status, history and event together */
  transition: (intentId: string, to: FundingIntentStatus, reason: string) => Promise<unknown>;
  /** a conversion finished: wake the settlement worker */
  onSucceeded?: () => void;
}

const hashes = (e: ExecutionRecord, hash: string) => JSON.stringify([...new Set([...(JSON.parse(e.transaction_hashes) as string[]), hash])]);

export class RouteRunner {
  constructor(private readonly deps: RunnerDeps) {}

  /** The intent's funds are confirmed: the execution starts and the intent enters ROUTING. */
  async start(e: ExecutionRecord): Promise<ExecutionRecord> {
    await this.deps.sql.transaction(async () => {
      const at = isoNow();
      await this.deps.executions.update(e.id, { status: 'RUNNING', phase: 'PRICING', started_at: at, updated_at: at });
      await this.deps.quotes.setStatus(e.quote_id, 'EXECUTING', at);
      await this.deps.transition(e.funding_intent_id, 'ROUTING', `route execution ${e.id} started`);
    });
    return (await this.deps.executions.findById(e.id))!;
  }

  async run(e: ExecutionRecord): Promise<void> {
    const network = this.deps.network(e.environment);
    if (!network) throw new Error(`no Stellar network for ${e.environment}`);
    const quote = (await this.deps.quotes.findById(e.quote_id))!;
    const [sendAsset, destAsset] = [network.assets[e.source_asset as AssetCode], network.assets[quote.destination_asset as AssetCode]];
    // re-price: the book may have moved since the quote; fall back to the quoted path
    const [now] = await priceReceive(network, [e.source_asset as AssetCode], quote.destination_asset as AssetCode, e.destination_amount);
    const path = now?.path ?? routeInfo(quote).path.map(parseAssetKey);
    await this.patch(e, { phase: 'SUBMITTING' });
    const deposit = await this.deps.depositKeys().forIntent(e.funding_intent_id);
    const out = await submitConversion(this.deps.signer(), e.envelope_xdr, { deposit, sendAsset, sendMax: e.send_max, destAsset, destAmount: e.destination_amount, path },
      (envelope) => this.patch(e, { envelope_xdr: envelope }));
    if (!out.successful) return this.failed(e, out);
    await this.patch(e, { phase: 'CONFIRMING', transaction_hashes: hashes(e, out.hash), provider_execution_id: out.hash });
    const spent = await sourceSpent(network, out.hash, sendAsset, out.opIndex);
    await this.succeeded(e, spent ?? e.send_max);
  }

  private async patch(e: ExecutionRecord, patch: Partial<ExecutionRecord>): Promise<void> {
    await this.deps.executions.update(e.id, { ...patch, updated_at: isoNow() });
  }

  private async succeeded(e: ExecutionRecord, spent: bigint): Promise<void> {
    await this.deps.sql.transaction(async () => {
      const at = isoNow();
      await this.deps.executions.update(e.id, { status: 'SUCCEEDED', phase: 'COMPLETED', source_consumed: spent, completed_at: at, updated_at: at });
      await this.deps.quotes.setStatus(e.quote_id, 'EXECUTED', at);
    });
    this.deps.onSucceeded?.();
  }

  private async failed(e: ExecutionRecord, out: TxOutcome): Promise<void> {
    const code = out.code?.split(': ').at(-1) ?? 'route_failed';
    const paused = code === 'op_over_source_max';
    const message = paused
      ? 'the price moved beyond the quote\'s slippage; resume to convert at the current price, or refund'
      : `the path payment failed (${out.code ?? 'rejected'}); retry, or refund the received funds`;
    await this.deps.sql.transaction(async () => {
      const at = isoNow();
      const current = (await this.deps.executions.findById(e.id))!;
      await this.deps.executions.update(e.id, {
        status: paused ? 'PAUSED' : 'FAILED', phase: 'PRICING', failure_code: code, failure_message: message,
        ...(out.applied ? { transaction_hashes: hashes(current, out.hash) } : {}), updated_at: at,
      });
      await this.deps.quotes.setStatus(e.quote_id, paused ? 'EXECUTING' : 'FAILED', at, paused ? {} : { failure_code: code, failure_message: message });
    });
  }

  async retryLater(e: ExecutionRecord, at: string): Promise<void> {
    await this.deps.executions.update(e.id, { attempts: e.attempts + 1, next_attempt_at: at });
  }
}
