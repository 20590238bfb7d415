/** What `.withResponse()` resolves to. */
export interface WithResponse<T> {
  data: T;
  /** The raw Response (its body already consumed). */
  response: Response;
  /** The `X-Request-ID` of the final attempt. */
  requestId: string | null;
}

/**
 * A Promise of the parsed body that can also hand out the raw response: `await call` gives the
 * data, `await call.withResponse()` gives `{ data, response, requestId }`. The request starts at
 * once (like any promise); `then` is overridden so the base Promise's own value is never used.
 */
export class APIPromise<T> extends Promise<T> {
  #raw: Promise<WithResponse<T>>;
  #data: Promise<T> | undefined;

  constructor(raw: Promise<WithResponse<T>>) {
    super((resolve) => resolve(undefined as T));
    this.#raw = raw;
  }

  /** Resolves with `{ data, response, requestId }`. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#raw;
  }

  #parsed(): Promise<T> {
    this.#data ??= this.#raw.then((result) => result.data);
    return this.#data;
  }

  override then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#parsed().then(onfulfilled, onrejected);
  }

  override catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.#parsed().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#parsed().finally(onfinally);
  }

  // `then` on a subclass would otherwise construct an APIPromise through the species.
  static override get [Symbol.species]() {
    return Promise;
  }
}
