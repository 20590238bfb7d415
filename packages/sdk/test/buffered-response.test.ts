import { describe, expect, it } from 'vitest';
import { BufferedResponse, readBody } from '../src/internal/buffered-response.js';

async function buffered(body: string, init: ResponseInit = {}): Promise<BufferedResponse> {
  const original = new Response(body, { status: 200, headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' }, ...init });
  return new BufferedResponse(await original.arrayBuffer(), original);
}

describe('BufferedResponse (a body read inside the timeout, served without a second stream)', () => {
  it('keeps status, statusText and headers, and is a Response', async () => {
    const response = await buffered('{"a":1}', { status: 404, statusText: 'Not Found' });
    expect(response).toBeInstanceOf(Response);
    expect([response.status, response.statusText, response.ok]).toEqual([404, 'Not Found', false]);
    expect(response.headers.get('x-request-id')).toBe('req_1');
  });

  it('reads the same body however and as often as asked, as Response would', async () => {
    const body = '\uFEFF{"a":"€ 🚀"}';
    const response = await buffered(body);
    const reference = new Response(body);
    expect(await response.text()).toBe(await reference.clone().text());
    expect(await response.json()).toEqual({ a: '€ 🚀' });
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array(await reference.clone().arrayBuffer()));
    expect(await (await response.blob()).text()).toBe(await reference.clone().text());
    expect(await new Response(response.body).text()).toBe(await reference.clone().text());
    expect(await response.clone().text()).toBe(await reference.text());
  });

  it('hands out copies, so writing into one read does not change the next', async () => {
    const response = await buffered('ab');
    new Uint8Array(await response.arrayBuffer()).fill(0);
    (await response.bytes()).fill(0);
    expect(await response.text()).toBe('ab');
  });

  it('rejects invalid JSON like Response#json', async () => {
    await expect((await buffered('not json')).json()).rejects.toThrow(SyntaxError);
  });
});

describe('readBody', () => {
  const stream = (...chunks: Uint8Array[]) => new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });

  it('joins every chunk, and reads a missing body as empty', async () => {
    const bytes = await readBody(stream(new Uint8Array([1, 2]), new Uint8Array([3]), new Uint8Array([4, 5])));
    expect([...bytes]).toEqual([1, 2, 3, 4, 5]);
    expect((await readBody(null)).byteLength).toBe(0);
  });

  it('keeps a lone chunk only when it owns its whole buffer', async () => {
    const whole = new Uint8Array([1, 2, 3]);
    expect(await readBody(stream(whole))).toBe(whole);
    const view = new Uint8Array(64 * 1024).subarray(10, 13);
    const read = await readBody(stream(view));
    expect(read.byteLength).toBe(3);
    expect(read.buffer.byteLength).toBe(3);
  });
});
