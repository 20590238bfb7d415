const decoder = new TextDecoder();

/**
 * A Response whose body was already read into memory (inside the attempt's timeout). Wrapping the
 * bytes in a new Response cost a ReadableStream and a second read of it (~25 µs, most of the SDK's
 * overhead per call over openapi-fetch); this one serves the bytes directly, can be read any number
 * of times, and makes a stream only if `body` is asked for.
 */
export class BufferedResponse extends Response {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  #stream: ReadableStream<Uint8Array<ArrayBuffer>> | undefined;

  constructor(bytes: ArrayBuffer, from: Response) {
    super(null, { status: from.status, statusText: from.statusText, headers: from.headers });
    this.#bytes = new Uint8Array(bytes);
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> {
    this.#stream ??= new Response(this.#bytes.slice()).body!;
    return this.#stream;
  }

  // What Response#text() does: UTF-8 with replacement, a leading BOM dropped.
  override async text(): Promise<string> {
    return decoder.decode(this.#bytes);
  }

  override async json(): Promise<any> {
    return JSON.parse(await this.text());
  }

  // copies, so a caller that writes into the result cannot change what the next read returns
  override async arrayBuffer(): Promise<ArrayBuffer> {
    return this.#bytes.slice().buffer;
  }

  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#bytes.slice();
  }

  override async blob(): Promise<Blob> {
    return new Blob([this.#bytes], { type: this.headers.get('content-type') ?? '' });
  }

  override async formData(): Promise<FormData> {
    return new Response(this.#bytes.slice(), { headers: this.headers }).formData();
  }

  override clone(): BufferedResponse {
    return new BufferedResponse(this.#bytes.buffer, this);
  }
}
