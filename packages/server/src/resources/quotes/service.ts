/** Quotes: options of an intent, accept, the simple form, retrieve and list. */
import { toPage } from '../../http/pagination.js';
import type { PageRequest } from '../../domain/page.js';
import { isoNow } from '../../lib/time.js';
import { acceptQuote, present } from './accept.js';
import { loadQuote, type QuoteCaller, type QuotesDeps } from './deps.js';
import { listOptions } from './options.js';
import { presentQuote } from './present.js';
import type { QuoteFilters } from '../../records/quotes.js';
import { createSimpleQuote, type SimpleQuoteInput } from './simple.js';

export class QuotesService {
  constructor(readonly deps: QuotesDeps) {}

  async options(caller: QuoteCaller, intentId: string) {
    await this.deps.quotes.expireStale(isoNow());
    return listOptions(this.deps, caller, intentId);
  }

  accept(caller: QuoteCaller, quoteId: string) {
    return acceptQuote(this.deps, caller, quoteId);
  }

  simple(caller: QuoteCaller, input: SimpleQuoteInput) {
    return createSimpleQuote(this.deps, caller, input);
  }

  async get(caller: QuoteCaller, id: string) {
    await this.deps.quotes.expireStale(isoNow());
    return present(this.deps, (await loadQuote(this.deps, caller, id)).id);
  }

  async list(caller: QuoteCaller, filters: QuoteFilters, page: PageRequest) {
    await this.deps.quotes.expireStale(isoNow());
    const rows = await this.deps.quotes.list(caller.applicationId, caller.environment, filters, page);
    return toPage(rows, page, async (shown) => {
      const executions = await this.deps.executions.byQuotes(shown.map((q) => q.id));
      return shown.map((q) => presentQuote(q, executions.get(q.id)));
    });
  }
}
