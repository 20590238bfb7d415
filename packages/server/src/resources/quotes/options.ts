/**
 * GET /v1/funding_intents/{id}/options: one stored, ACTIVE quote per source asset that reaches
 * the destination. Earlier ACTIVE quotes stay selectable until they expire (SUPERSEDED is kept for
 * "another quote was accepted"), so two open checkouts of one intent never invalidate each other.
 */
import { ApiError } from '../../http/api-error.js';
import { withSlippage } from '../../pricing/amounts.js';
import { priceReceive, type AssetCode, type PricedPath } from '../../pricing/price.js';
import { buildQuote, type QuoteDraft } from './build.js';
import { isoIn, loadIntent, type QuoteCaller, type QuotesDeps } from './deps.js';
import type { LinkedIntent } from '../../records/quote-intent-link.js';
import { presentOption } from './present.js';

const CODES: AssetCode[] = ['USDC', 'EURC', 'XLM'];
/** CREATED included: the options price the intent, whether or not its deposit account is on chain yet */
const OPEN = ['CREATED', 'AWAITING_PAYMENT', 'PARTIALLY_FUNDED'];

function checkPayable(intent: LinkedIntent): void {
  if (!OPEN.includes(intent.status)) {
    throw new ApiError('CONFLICT', `a ${intent.status} funding intent cannot be paid any more; options exist only while it awaits payment`);
  }
  if (intent.received_amount > 0n && intent.route_type === 'STELLAR_PATH_PAYMENT') {
    throw new ApiError('CONFLICT', 'this intent is partly paid through an accepted quote; pay the rest as its funding instructions say');
  }
}

/** Source assets worth pricing: every enabled one, or only the destination once money arrived (no mixing). */
async function sources(deps: QuotesDeps, intent: LinkedIntent): Promise<AssetCode[]> {
  const enabled: AssetCode[] = [];
  for (const c of CODES) if (await deps.assets.findEnabled(intent.environment, c)) enabled.push(c);
  // a muxed intent converts nothing: its collection account holds only its own asset (DESIGN §11)
  return intent.received_amount > 0n || intent.deposit_type === 'muxed' ? enabled.filter((c) => c === intent.requirement_asset) : enabled;
}

function draft(deps: QuotesDeps, intent: LinkedIntent, code: AssetCode, remaining: bigint, priced: PricedPath | null): QuoteDraft {
  const expected = priced ? priced.sourceAmount : remaining;
  return {
    applicationId: intent.application_id, environment: intent.environment, stellarNetwork: deps.assets.network(intent.environment),
    intentId: intent.id, destinationAddress: intent.destination_address, type: 'EXACT_OUTPUT', status: 'ACTIVE',
    sourceCode: code, destinationCode: intent.requirement_asset, sendAmount: priced ? withSlippage(expected, deps.slippageBps) : remaining,
    expectedAmount: expected, destinationAmount: remaining, slippageBps: priced ? deps.slippageBps : 0,
    expiresAt: isoIn(deps.ttlSeconds), lockExpiresAt: null, priced,
  };
}

export async function listOptions(deps: QuotesDeps, caller: QuoteCaller, intentId: string) {
  const intent = await loadIntent(deps, caller, intentId);
  checkPayable(intent);
  const remaining = intent.requirement_amount - intent.received_amount;
  const codes = await sources(deps, intent);
  const network = deps.network(intent.environment);
  const others = codes.filter((c) => c !== intent.requirement_asset);
  const paths = network ? await priceReceive(network, others, intent.requirement_asset as AssetCode, remaining) : [];
  const drafts = [
    ...(codes.includes(intent.requirement_asset as AssetCode) ? [draft(deps, intent, intent.requirement_asset as AssetCode, remaining, null)] : []),
    ...paths.map((p) => draft(deps, intent, p.sourceCode, remaining, p)),
  ];
  if (drafts.length === 0) throw new ApiError('NO_ROUTE_AVAILABLE', `no supported asset can reach ${intent.requirement_asset} for this intent now`);
  const quotes = drafts.map((d) => buildQuote(network, d));
  await deps.sql.transaction(async () => {
    for (const q of quotes) await deps.quotes.insert(q);
  });
  return { object: 'funding_options' as const, funding_intent_id: intent.id, options: quotes.map(presentOption) };
}
