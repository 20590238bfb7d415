import { APIPromise, type WithResponse } from './api-promise.js';

/** The list envelope every paginated operation answers. */
export interface ListEnvelope<Item> {
  object: 'list';
  data: Item[];
  next_cursor: string | null;
}

export type PageFetcher<Item> = (cursor: string | undefined) => Promise<WithResponse<ListEnvelope<Item>>>;

/** One page of a list; iterating it walks this page and every later one. */
export class Page<Item> implements ListEnvelope<Item>, AsyncIterable<Item> {
  readonly object = 'list' as const;
  readonly data: Item[];
  readonly next_cursor: string | null;
  /** The raw Response of this page. */
  readonly response: Response;
  readonly #fetch: PageFetcher<Item>;

  constructor(result: WithResponse<ListEnvelope<Item>>, fetch: PageFetcher<Item>) {
    this.data = result.data.data;
    this.next_cursor = result.data.next_cursor ?? null;
    this.response = result.response;
    this.#fetch = fetch;
  }

  hasNextPage(): boolean {
    return this.next_cursor !== null && this.next_cursor !== '';
  }

  /** Fetches the page after this one; throws when there is none (check `hasNextPage()`). */
  async getNextPage(): Promise<Page<Item>> {
    if (!this.hasNextPage()) throw new Error('No next page: check hasNextPage() first');
    return new Page(await this.#fetch(this.next_cursor ?? undefined), this.#fetch);
  }

  /** This page, then each following page. */
  async *iterPages(): AsyncGenerator<Page<Item>> {
    let page: Page<Item> = this;
    yield page;
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      yield page;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    for await (const page of this.iterPages()) yield* page.data;
  }
}

/**
 * The result of a list call: `await` it for the first page, `for await` it for every item across
 * pages, `.pages()` for page by page, `.toArray({ limit })` to collect with a cap.
 */
export class PagePromise<Item> extends APIPromise<Page<Item>> implements AsyncIterable<Item> {
  constructor(fetch: PageFetcher<Item>) {
    super(fetch(undefined).then((first) => ({ ...first, data: new Page(first, fetch) })));
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    yield* await this;
  }

  /** Every page, starting with the first. */
  async *pages(): AsyncGenerator<Page<Item>> {
    yield* (await this).iterPages();
  }

  /**
   * Collects items across pages, stopping at `limit`. The cap is required: a list without
   * filters can be as long as the account's history.
   */
  async toArray(options: { limit: number }): Promise<Item[]> {
    if (!Number.isInteger(options.limit) || options.limit < 0) throw new RangeError('toArray: limit must be a non-negative integer');
    const items: Item[] = [];
    if (options.limit === 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= options.limit) break;
    }
    return items;
  }
}
