/** Quotes: options of an intent, accept, the simple form, retrieve and list. */
import { toList, type PageRequest } from '../../http/pagination.js';
import { isoNow } from '../../lib/time.js';
import { acceptQuote, present } from './accept.js';
import { loadQuote, type QuoteCaller, type QuotesDeps } from './deps.js';
import { listOptions } from './options.js';
import { presentQuote } from './present.js';
import type { QuoteFilters } from './repo.js';
import { createSimpleQuote, type SimpleQuoteInput } from './simple.js';

export class QuotesService {
  constructor(readonly deps: QuotesDeps) {}

  options(caller: QuoteCaller, intentId: string) {
    this.deps.quotes.expireStale(isoNow());
    return listOptions(this.deps, caller, intentId);
  }

  accept(caller: QuoteCaller, quoteId: string) {
    return acceptQuote(this.deps, caller, quoteId);
  }

  simple(caller: QuoteCaller, input: SimpleQuoteInput) {
    return createSimpleQuote(this.deps, caller, input);
  }

  get(caller: QuoteCaller, id: string) {
    this.deps.quotes.expireStale(isoNow());
    return present(this.deps, loadQuote(this.deps, caller, id).id);
  }

  list(caller: QuoteCaller, filters: QuoteFilters, page: PageRequest) {
    this.deps.quotes.expireStale(isoNow());
    const rows = this.deps.quotes.list(caller.applicationId, caller.environment, filters, page);
    return toList(rows, page, (q) => presentQuote(q, this.deps.executions.byQuote(q.id)));
  }

  /** The accepted quote of an intent, as the intent's `quote` field shows it. */
  ofIntent(quoteId: string | null) {
    return quoteId ? present(this.deps, quoteId) : null;
  }
}
