import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setupServer } from 'msw/node';
import { parse } from 'yaml';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { Fundkit, type ClientOptions } from '../src/index.js';

export const BASE = 'https://sandbox.api.fundkit.dev';
export const TEST_KEY = 'sk_test_0123456789abcdef';

/** One msw server per test file; handlers are added per test with `server.use`. */
export function useMsw() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/** A client against the sandbox origin msw answers for; created per test, after msw patched fetch. */
export function client(options: ClientOptions = {}): Fundkit {
  return new Fundkit({ apiKey: TEST_KEY, ...options });
}

interface SpecOperation { method: string; path: string; operationId: string; idempotencyKey: 'none' | 'optional' | 'required' }

/** Every operation of `paths` in spec/openapi.yaml (the `webhooks:` section is not callable). */
export function specOperations(): SpecOperation[] {
  const file = fileURLToPath(new URL('../../../spec/openapi.yaml', import.meta.url));
  const spec = parse(readFileSync(file, 'utf8')) as { paths: Record<string, Record<string, { operationId: string; parameters?: { $ref?: string }[] }>> };
  const out: SpecOperation[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const refs = (op.parameters ?? []).map((p) => p.$ref ?? '');
      const idempotencyKey = refs.some((r) => r.endsWith('/IdempotencyKeyRequired')) ? 'required' : refs.some((r) => r.endsWith('/IdempotencyKey')) ? 'optional' : 'none';
      out.push({ method: method.toUpperCase(), path, operationId: op.operationId, idempotencyKey });
    }
  }
  return out;
}

/** Application-envelope error body. */
export function apiError(code: string, message = code, extra: Record<string, unknown> = {}) {
  return { error: { code, message, requestId: 'req_test', ...extra } };
}
