/**
 * Fuzz every operation of the spec over HTTP: generated params, bodies, headers and credentials
 * (valid, at the boundaries, broken). No 5xx, every response documented and on its schema, in the
 * right error envelope; the database invariants hold afterwards.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Operation } from '../../packages/server/src/spec/operations.js';
import type { TestServer } from '../../packages/server/test/helpers/server.js';
import { body as bodyArb, param, valid } from './arbitraries.js';
import { fillPath, idem, KEYS, must, OPERATOR_KEY, send, startServer, until } from './harness.js';
import { value } from '../../packages/server/test/helpers/raw-sql.js';
import { chainAt } from '../../packages/server/test/crash/invariants.js';
import { checkDatabase, ledgerSums, stroops } from './invariants.js';
import { buildWorld, pathValues, type World } from './world.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
let t: TestServer;
let world: World;
const stats = new Map<string, number>();
/** operations that answered 2xx at least once: the fuzzer reached their success path */
const okOps = new Set<string>();
const problems = new Map<string, { request: unknown; status: number; problems: string[] }>();

beforeAll(async () => {
  t = await startServer();
  world = await buildWorld(t);
});
afterAll(async () => {
  await world?.close();
  await t?.close();
});

/** Real ids of every kind, and a few that exist nowhere. */
function idPool(): string[] {
  const ids = new Set<string>(['fi_00000000000000000000000000', 'x', '..%2F..', 'a'.repeat(80), 'qt_nope', 'we_nope', 'USDC', 'XLM', 'EURC']);
  for (const perEnv of Object.values(world.objects)) {
    for (const o of Object.values(perEnv)) {
      for (const v of [o.intent, o.creditedIntent, o.payment, o.refund, o.settlement, o.webhook, o.delivery, o.event, o.quote, o.routeExecution, o.session.id, o.requestLog]) if (v) ids.add(v);
    }
  }
  for (const v of [world.account.application, world.account.key, world.otherAccount.application, world.applications.alpha]) ids.add(v);
  return [...ids];
}

function credentialPool(): string[] {
  const alpha = world.objects.alpha.test!;
  return [
    KEYS.alpha.test.secret, KEYS.alpha.test.publishable, KEYS.alpha.live.secret, KEYS.beta.test.secret, KEYS.beta.live.publishable,
    alpha.session.token, world.account.token, OPERATOR_KEY, 'sk_test_doesNotExist0000000000000', 'acs_nope', 'eyJ.bad.jwt', '',
  ];
}

const headerArb = fc.record({
  'idempotency-key': fc.option(fc.oneof(fc.stringMatching(/^[A-Za-z0-9-]{8,40}$/), fc.constantFrom('short', 'k'.repeat(256), ' ')), { nil: undefined }),
  'x-request-id': fc.option(fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), fc.constantFrom('bad id with spaces', 'r'.repeat(100))), { nil: undefined }),
  origin: fc.option(fc.constant('https://shop.example.org'), { freq: 8, nil: undefined }),
});

/** The credential the operation documents first (the one most likely to get through). */
function rightCredential(op: Operation): string | undefined {
  const o = world.objects.alpha.test!;
  const byScheme: Record<string, string> = {
    SecretKey: KEYS.alpha.test.secret, PublishableKey: KEYS.alpha.test.publishable, CheckoutSession: o.session.token, AccountSession: world.account.token, OperatorKey: OPERATOR_KEY,
  };
  const schemes = [...op.credentials];
  return schemes.length === 0 ? undefined : byScheme[schemes[0]!];
}

function requestArb(op: Operation) {
  const doc = t.server.context.spec.document;
  const ids = idPool();
  const pathNames = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const bodySchema = op.body?.schemaPointer && op.body.contentTypes.some((c) => c.includes('json')) ? { $ref: op.body.schemaPointer } : null;
  const chaotic = fc.record({
    path: fc.record(Object.fromEntries(pathNames.map((n) => [n, fc.oneof({ arbitrary: fc.constantFrom(...ids), weight: 4 }, { arbitrary: fc.string({ minLength: 1, maxLength: 30 }), weight: 1 })]))),
    query: fc.record(Object.fromEntries(queryParams.map((p) => [p.name, param(doc, p.schema)]))),
    body: bodySchema ? fc.option(bodyArb(doc, bodySchema), { freq: 10, nil: undefined }) : fc.constant(undefined),
    headers: headerArb,
    key: fc.option(fc.constantFrom(...credentialPool()), { freq: 8, nil: undefined }),
  });
  // well-formed: the right credential, real ids, a fresh Idempotency-Key; only the values vary
  const wellFormed = fc.record({
    path: fc.constant(Object.fromEntries(pathNames.map((n) => [n, pathValues(world, op.path)[n] ?? 'x']))),
    query: fc.record(Object.fromEntries(queryParams.map((p) => [p.name, fc.option(valid(doc, p.schema).map(String), { nil: undefined })]))),
    body: bodySchema ? valid(doc, bodySchema) : fc.constant(undefined),
    // unique per request: a key reused with another body is a (correct) 422, not what this arm probes
    headers: fc.constant(undefined).map(() => ({ 'idempotency-key': idem() } as Record<string, string | undefined>)),
    key: fc.constant(rightCredential(op)),
  });
  return fc.oneof(wellFormed, chaotic).map((r) => {
    const search = new URLSearchParams(Object.entries(r.query).filter(([, v]) => v !== undefined) as [string, string][]).toString();
    const headers = Object.fromEntries(Object.entries(r.headers).filter(([, v]) => v !== undefined)) as Record<string, string>;
    // an SSE stream never ends on success: ask the status operation for its JSON form
    if (op.operationId === 'streamPublicFundingIntentStatus') headers.accept = 'application/json';
    return { method: op.method.toUpperCase(), path: fillPath(op.path, r.path) + (search ? `?${search}` : ''), key: r.key, body: r.body, headers };
  });
}

/** Undo what a fuzzed request may break for the next operations (deactivations, sign-outs). */
async function repair(): Promise<void> {
  for (const id of Object.values(world.applications)) await send(t, { method: 'POST', path: `/v1/platform/applications/${id}/reactivate`, key: OPERATOR_KEY });
  const session = await send(t, { method: 'GET', path: '/v1/auth/session', key: world.account.token });
  if (session.status === 401) world.account.token = (await must(t, { method: 'POST', path: '/v1/auth/sign-in', body: { email: 'rel-owner@example.org', password: 'correct horse battery staple' } }, 200)).token;
}

describe('fuzzing every operation', () => {
  it('covers every operation of the spec', () => {
    expect(t.server.context.spec.operations.length).toBeGreaterThanOrEqual(60);
  });

  it('answers every generated request without a 5xx, on the spec, in the right envelope', async () => {
    // destructive operations last, so the others still find their objects alive
    const destructive = /^(delete|revoke|deactivate|signOut|expire|failTest|cancel)/;
    const ops = [...t.server.context.spec.operations].sort((a, b) => Number(destructive.test(a.operationId)) - Number(destructive.test(b.operationId)));
    for (const op of ops) {
      await fc.assert(fc.asyncProperty(requestArb(op), async (req) => {
        const got = await send(t, req, op);
        stats.set(`${got.status}`, (stats.get(`${got.status}`) ?? 0) + 1);
        if (got.status < 300) okOps.add(op.operationId);
        if (got.problems.length > 0 && !problems.has(`${op.operationId}:${got.status}`)) {
          problems.set(`${op.operationId}:${got.status}`, { request: req, status: got.status, problems: got.problems.map((p) => `${p} ${got.text.slice(0, 300)}`) });
        }
      }), { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? 20261122) });
      await repair();
    }
    if (process.env.FUZZ_DEBUG) console.error(Object.fromEntries(stats), t.server.context.spec.operations.map((o) => o.operationId).filter((id) => !okOps.has(id)));
    expect([...problems.values()]).toEqual([]);
    // the well-formed arm must get past auth and validation, or the fuzzer only tests the gates
    expect(okOps.size).toBeGreaterThanOrEqual(30);
    // every operation times RUNS requests, one after another: ~45 s on CI's 2 cores, more while it is busy
  }, 180_000);

  it('leaves the database consistent: ledger sums are the balances, one credit per intent, no orphans', async () => {
    // fuzzed test payments may still be settling: let the workers finish first
    await until(async () => Number(await value(t.server.sql, `SELECT (SELECT COUNT(*) FROM funding_intents WHERE status IN ('PAYMENT_DETECTED', 'PAYMENT_CONFIRMED', 'ROUTING', 'SETTLING', 'SETTLED', 'REFUND_PENDING'))
      + (SELECT COUNT(*) FROM refunds WHERE status IN ('PENDING', 'PROCESSING')) AS n`)), (n) => n === 0, 20_000);
    expect(await checkDatabase(t.server.sql, chainAt(`${t.url}/sandbox/horizon`))).toEqual([]);
    const sums = await ledgerSums(t.server.sql);
    for (const app of ['alpha', 'beta'] as const) {
      const balances = await must(t, { method: 'GET', path: '/v1/ledger/balances', key: KEYS[app].test.secret }, 200);
      for (const b of balances.data) {
        expect(stroops(b.available), `${app} ${b.asset}`).toBe(sums.get(`${world.applications[app]}|test|${b.asset}`) ?? 0n);
      }
    }
  });
});

