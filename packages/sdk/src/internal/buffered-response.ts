const decoder = new TextDecoder();

/**
 * Reads a body to its end. Response#arrayBuffer() does the same through undici's generic body
 * machinery, then copies the bytes twice (concatenating, then into a fresh ArrayBuffer): ~10 µs a
 * call for a 4 KB body. A single chunk is kept as it is unless it is a view into a larger buffer.
 */
export async function readBody(body: ReadableStream<Uint8Array> | null): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  if (body) {
    const reader = body.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      chunks.push(next.value);
      length += next.value.byteLength;
    }
  }
  const only = chunks.length === 1 ? chunks[0]! : undefined;
  if (only && only.byteLength === only.buffer.byteLength && only.buffer instanceof ArrayBuffer) return only as Uint8Array<ArrayBuffer>;
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * A Response whose body was already read into memory (inside the attempt's timeout). Wrapping the
 * bytes in a new Response cost a ReadableStream and a second read of it (~25 µs, most of the SDK's
 * overhead per call over openapi-fetch); this one serves the bytes directly, can be read any number
 * of times, and makes a stream only if `body` is asked for. Status, headers and the rest are read
 * from the original: copying them into `super()` converted and validated every header again (~3 µs).
 */
export class BufferedResponse extends Response {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  readonly #from: Response;
  #stream: ReadableStream<Uint8Array<ArrayBuffer>> | undefined;

  constructor(bytes: ArrayBuffer | Uint8Array<ArrayBuffer>, from: Response) {
    super();
    this.#bytes = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    this.#from = from;
  }

  override get status(): number { return this.#from.status; }
  override get statusText(): string { return this.#from.statusText; }
  override get ok(): boolean { return this.#from.ok; }
  override get headers(): Headers { return this.#from.headers; }
  override get url(): string { return this.#from.url; }
  override get redirected(): boolean { return this.#from.redirected; }
  override get type(): ResponseType { return this.#from.type; }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> {
    this.#stream ??= new Response(this.#bytes.slice()).body!;
    return this.#stream;
  }

  // What Response#text() does: UTF-8 with replacement, a leading BOM dropped.
  override async text(): Promise<string> {
    return decoder.decode(this.#bytes);
  }

  override async json(): Promise<any> {
    return JSON.parse(decoder.decode(this.#bytes));
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
    return new BufferedResponse(this.#bytes, this.#from);
  }
}
