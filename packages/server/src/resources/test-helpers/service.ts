/**
 * Sandbox test helpers (test keys only): a real payment from a faucet-funded payer (the observer
 * applies it, exactly as for a wallet), expire now, and fail the next settlement.
 */
import { ApiError, parseAmountInput } from '../../http/api-error.js';
import { fromStroops, toStroops } from '../../lib/money.js';
import { isoNow } from '../../lib/time.js';
import type { DepositKeys } from '../../pipeline/deposit-keys.js';
import type { Expirer } from '../../pipeline/expiry.js';
import type { SandboxTools } from '../../pipeline/sandbox-tools.js';
import type { Caller } from '../../domain/caller.js';
import type { IntentAccess } from '../funding-intents/service.js';
import type { SettlementsRepo } from '../../records/settlements.js';

export interface TestPaymentInput {
  amount: string;
  asset: string;
  memo?: string;
}

export interface TestHelpersDeps {
  fundingIntents: IntentAccess;
  tools: SandboxTools | null;
  depositKeys: DepositKeys;
  expirer: Expirer;
  settlements: SettlementsRepo;
}

const ASSETS = ['USDC', 'EURC', 'XLM', 'FAKE'];

function testOnly(caller: Caller): void {
  if (caller.environment !== 'test') throw new ApiError('FORBIDDEN', 'test helpers take test keys only (sk_test_…); this is a live key');
}

export class TestHelpersService {
  constructor(private readonly deps: TestHelpersDeps) {}

  async pay(caller: Caller, intentId: string, input: TestPaymentInput) {
    testOnly(caller);
    const intent = await this.deps.fundingIntents.load(caller, intentId);
    const amount = parseAmountInput(() => toStroops(input.amount));
    const code = input.asset.toUpperCase();
    if (!ASSETS.includes(code)) {
      throw new ApiError('UNSUPPORTED_ASSET', 'asset must be USDC, EURC, XLM or FAKE', { details: [{ path: 'body.asset', message: 'must be USDC, EURC, XLM or FAKE' }] });
    }
    const { tools } = this.deps;
    if (!tools) throw new ApiError('CONFLICT', 'test payments need the embedded sandbox ledger (FUNDKIT_STELLAR=sandbox)');
    // an intent created a moment ago may still be waiting for its account: pay once it exists
    await this.deps.fundingIntents.untilPayable(intent.id);
    const deposit = await this.deps.depositKeys.forIntent(intent.id);
    if (deposit.status !== 'ACTIVE') {
      // e.g. cancelled while CREATED: its account is never created, and nothing can be paid to it
      const now = await this.deps.fundingIntents.load(caller, intent.id);
      throw new ApiError('CONFLICT', `the deposit account of this ${now.status} funding intent is ${deposit.status}: it is not on the network, so it takes no payments`);
    }
    const asset = tools.assetFor(code, intent.requirement_asset);
    await tools.ensureDepositTrust(deposit, asset);
    const { payer, result } = await tools.pay(deposit.payTo, asset, amount, input.memo);
    if (!result.successful || result.ledger === null) {
      throw new ApiError('CONFLICT', `the sandbox rejected the payment (${result.resultCodes?.transaction ?? 'rejected'}${result.resultCodes?.operations ? `: ${result.resultCodes.operations.join(', ')}` : ''})`);
    }
    return {
      object: 'test_payment' as const, funding_intent_id: intent.id, transaction_hash: result.hash, ledger: result.ledger,
      payer_address: payer, destination_address: deposit.payTo, amount: fromStroops(amount), asset: code,
    };
  }

  async expire(caller: Caller, intentId: string) {
    testOnly(caller);
    const intent = await this.deps.fundingIntents.load(caller, intentId);
    await this.deps.fundingIntents.untilPayable(intent.id);
    if (!await this.deps.expirer.expireNow(intent.id)) {
      const now = await this.deps.fundingIntents.load(caller, intent.id);
      throw new ApiError('CONFLICT', `a ${now.status} funding intent cannot expire; only AWAITING_PAYMENT or PARTIALLY_FUNDED ones can`);
    }
    return this.deps.fundingIntents.get(caller, intent.id);
  }

  async failSettlement(caller: Caller, intentId: string) {
    testOnly(caller);
    const intent = await this.deps.fundingIntents.load(caller, intentId);
    if (await this.deps.settlements.byIntent(intent.id) || ['SETTLED', 'CREDITED', 'FAILED', 'REFUND_PENDING', 'REFUNDED', 'EXPIRED', 'CANCELLED'].includes(intent.status)) {
      throw new ApiError('CONFLICT', `the settlement of this ${intent.status} funding intent is already decided`);
    }
    await this.deps.settlements.flagFailure(intent.id, isoNow());
    return this.deps.fundingIntents.get(caller, intent.id);
  }
}
