/**
 * POST /v1/quotes/{id}/accept: locks the quote and rewrites the intent's source, quote, route and
 * funding instructions in one transaction. Checks run twice: once before the (network) trustline
 * step, once inside the transaction, so a race can never lock an expired quote or a paid intent.
 */
import { ApiError } from '../../http/api-error.js';
import { isoNow } from '../../lib/time.js';
import { replaceExecution } from '../route-executions/create.js';
import { checkBound, isoIn, loadQuote, type QuoteCaller, type QuotesDeps } from './deps.js';
import type { LinkedIntent } from '../../records/quote-intent-link.js';
import { presentQuote } from './present.js';
import type { QuoteRecord } from '../../records/quotes.js';

/** How long an accepted quote holds at most (capped at the intent's expiry). */
const LOCK_SECONDS = 30 * 60;

async function checkSelectable(deps: QuotesDeps, quote: QuoteRecord): Promise<void> {
  const expired = quote.status === 'EXPIRED' || (quote.status === 'ACTIVE' && Date.parse(quote.expires_at) <= Date.now());
  if (expired) {
    if (quote.status === 'ACTIVE') await deps.quotes.setStatus(quote.id, 'EXPIRED', isoNow());
    throw new ApiError('QUOTE_EXPIRED', 'this quote expired; fetch the options again and accept a fresh quote');
  }
  if (quote.status !== 'ACTIVE') throw new ApiError('QUOTE_NOT_SELECTABLE', `a ${quote.status} quote cannot be accepted; only an ACTIVE one can`);
}

function checkIntent(intent: LinkedIntent | undefined): LinkedIntent {
  if (!intent) throw new Error('quote of a vanished intent');
  // CREATED too: a quote does not need the deposit account on chain (a path payment's trustline waits for it)
  if (!['CREATED', 'AWAITING_PAYMENT'].includes(intent.status) || intent.received_amount > 0n) {
    throw new ApiError('CONFLICT', `a quote can be accepted only before any payment arrives; this intent is ${intent.status}`);
  }
  return intent;
}

const lockedFor = (q: QuoteRecord, intent: LinkedIntent | undefined) => q.status === 'LOCKED' && intent?.quote_id === q.id;

async function lock(deps: QuotesDeps, quoteId: string): Promise<void> {
  await deps.sql.transaction(async () => {
    const quote = (await deps.quotes.findById(quoteId))!;
    await checkSelectable(deps, quote);
    const intent = checkIntent(await deps.intents.findById(quote.funding_intent_id!));
    const at = isoNow();
    const cap = Math.min(Date.parse(intent.expires_at), Date.now() + LOCK_SECONDS * 1000);
    await deps.quotes.setStatus(quote.id, 'LOCKED', at, { lock_expires_at: isoIn(0, cap) });
    await deps.quotes.supersedeOthers(intent.id, quote.id, at);
    await replaceExecution(deps.executions, (await deps.quotes.findById(quote.id))!);
    await deps.intents.setSource(intent.id, { asset: quote.source_asset, amount: quote.source_amount, routeType: quote.route_type, quoteId: quote.id }, at);
  });
}

export async function acceptQuote(deps: QuotesDeps, caller: QuoteCaller, quoteId: string) {
  const quote = await loadQuote(deps, caller, quoteId);
  checkBound(caller, quote.funding_intent_id);
  if (!quote.funding_intent_id) throw new ApiError('QUOTE_NOT_SELECTABLE', 'a simple quote is locked already and belongs to no intent');
  // accepting the quote already locked for its intent replays it (idempotent by state)
  if (lockedFor(quote, await deps.intents.findById(quote.funding_intent_id))) return present(deps, quoteId);
  await checkSelectable(deps, quote);
  const intent = checkIntent(await deps.intents.findById(quote.funding_intent_id));
  if (intent.deposit_type === 'muxed' && quote.route_type === 'STELLAR_PATH_PAYMENT') {
    throw new ApiError('CONFLICT', `a funding intent with deposit_type "muxed" is paid in ${intent.requirement_asset} only: conversions need a deposit account of its own (deposit_type "account")`);
  }
  // the deposit account must hold the source asset before the payer is told to send it
  if (quote.route_type === 'STELLAR_PATH_PAYMENT') await deps.ensureTrust(quote.funding_intent_id, quote.source_asset, quote.environment);
  await lock(deps, quoteId);
  return present(deps, quoteId);
}

export async function present(deps: QuotesDeps, quoteId: string) {
  return presentQuote((await deps.quotes.findById(quoteId))!, await deps.executions.byQuote(quoteId));
}
