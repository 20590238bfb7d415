/**
 * The auth matrix, generated from the spec's security requirements: every operation × every
 * credential kind × both environments × two applications, always aimed at application Alpha's
 * test-mode objects. An account session goes three ways: alone (401 on application operations),
 * naming its own application in Fundkit-Application (as another application's key), or naming
 * another account's (403). Exactly the documented schemes get past auth; a key of the other environment
 * gets 403; another application's key gets 404 (the object is not theirs to see).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Operation } from '../../packages/server/src/spec/operations.js';
import type { TestServer } from '../../packages/server/test/helpers/server.js';
import { fillPath, idem, KEYS, must, OPERATOR_KEY, send, startServer, type AppName, type Env } from './harness.js';
import { buildWorld, pathValues, type World } from './world.js';

type Kind = 'secret' | 'publishable' | 'checkout' | 'account' | 'operator' | 'none';
const SCHEME: Record<Kind, string | null> = {
  secret: 'SecretKey', publishable: 'PublishableKey', checkout: 'CheckoutSession', account: 'AccountSession', operator: 'OperatorKey', none: null,
};

/**
 * `acting`: the account session names an application in Fundkit-Application (issue 28): its own
 * (`own`, no Alpha objects: as Beta's test key) or another account's (`foreign`).
 */
interface Credential { kind: Kind; app?: AppName; env?: Env; token?: string; acting?: 'own' | 'foreign' }

/** Application operations declare Fundkit-Application: there a session must name one. */
const takesApplication = (op: Operation) => op.parameters.some((p) => p.in === 'header' && p.name === 'Fundkit-Application');

let t: TestServer;
let world: World;
// the set-up signs up and in (scrypt at N=2^17: seconds a hash on a loaded machine) besides paying
vi.setConfig({ hookTimeout: 240_000 });

beforeAll(async () => {
  // each public operation is called once per credential (~16 times): the sign-in, sign-up and
  // verification limits (tested in packages/server/test/auth/) would answer 429 from the 6th on
  t = await startServer({ FUNDKIT_SIGNIN_ACCOUNT_FAILURES: '1000', FUNDKIT_SIGNIN_CLIENT_FAILURES: '1000', FUNDKIT_SIGNUP_LIMIT: '1000', FUNDKIT_VERIFY_EMAIL_LIMIT: '1000' });
  world = await buildWorld(t);
});
afterAll(async () => {
  await world?.close();
  await t?.close();
});

function credentials(): Credential[] {
  const list: Credential[] = [];
  for (const app of ['alpha', 'beta'] as const) {
    for (const env of ['test', 'live'] as const) {
      list.push({ kind: 'secret', app, env, token: KEYS[app][env].secret });
      list.push({ kind: 'publishable', app, env, token: KEYS[app][env].publishable });
      list.push({ kind: 'checkout', app, env, token: world.objects[app][env]!.session.token });
    }
  }
  list.push({ kind: 'account', token: world.account.token }, { kind: 'account', acting: 'own' }, { kind: 'account', acting: 'foreign' }, { kind: 'operator', token: OPERATOR_KEY }, { kind: 'none' });
  return list;
}

/** Bodies that pass validation, so what is measured is auth and ownership. */
async function bodyFor(op: Operation): Promise<unknown> {
  const o = world.objects.alpha.test!;
  // a handoff token is single use (and burnt by any attempt): each request gets its own
  const handoff = async () => (await must(t, { method: 'POST', path: `/v1/checkout_sessions/${o.session.id}/handoff`, key: KEYS.alpha.test.secret, body: {}, headers: { 'idempotency-key': idem() } }, 201)).handoff_token;
  const bodies: Record<string, unknown> = {
    createFundingIntent: { amount: '10', asset: 'USDC' }, createRefund: { reason: 'OVERPAYMENT' }, createSimpleQuote: { from_currency: 'XLM', to_currency: 'USDC', amount: 10, direction: 'receive' },
    createCheckoutSession: { funding_intent_id: o.intent }, createCheckoutHandoff: {}, 
    createWebhookEndpoint: { url: 'https://hooks.example.org/x', events: ['payment.pending'] }, updateWebhookEndpoint: { description: 'matrix' },
    createApplication: { name: 'Matrix' }, updateApplication: { name: 'Owned' }, createApiKey: { environment: 'test', type: 'publishable' },
    signUp: { email: `${idem()}@example.org`, password: 'correct horse battery staple' }, verifyEmail: { token: 'emv_nope' },
    signIn: { email: 'nobody@example.org', password: 'correct horse battery staple' }, updatePlatformAsset: { enabled: true },
    createTestPayment: { amount: '1', asset: 'USDC' },
  };
  if (op.operationId === 'resumeCheckoutSession') return { handoff_token: await handoff() };
  return op.body ? bodies[op.operationId] ?? {} : undefined;
}

/** Alpha test objects the operation touches (in its path, or by id in its body). */
function ownsObject(op: Operation, values: Record<string, string>): boolean {
  if (/^\/v1\/(assets|applications|platform|auth)/.test(op.path)) return false;
  if (op.operationId === 'createCheckoutSession') return true;
  return op.path.includes('{id}') && !values.id!.endsWith('_none');
}

type Expect = { notAuthFailure: true } | { status: number[] };

function expected(op: Operation, cred: Credential, values: Record<string, string>): Expect {
  const scheme = SCHEME[cred.kind];
  if (!scheme || !op.credentials.has(scheme)) return { status: [401] };
  if (cred.kind === 'account' && takesApplication(op)) {
    if (!cred.acting) return { status: [401] };
    if (cred.acting === 'foreign') return { status: [403] };
    return expected(op, { kind: 'secret', app: 'beta', env: 'test' }, values);
  }
  if (cred.kind === 'account' && cred.acting) return { notAuthFailure: true };
  if (!cred.app || (cred.app === 'alpha' && cred.env === 'test')) return { notAuthFailure: true };
  // a checkout token is bound to one intent: anything else is refused, whichever the reason
  if (cred.kind === 'checkout') return { status: [403, 404] };
  if (op.operationId === 'resumeCheckoutSession') return { status: [401, 403, 404] };
  if (!ownsObject(op, values)) return { notAuthFailure: true };
  if (cred.app === 'alpha') return { status: [403] };
  return { status: cred.env === 'test' ? [404] : [403, 404] };
}

/** Destructive operations run last, so the others still see their objects. */
// (expireTestFundingIntent by name: expireWebhookPreviousSecret destroys nothing and must run
// while its endpoint exists)
const LAST = /^(delete|revoke|deactivate|signOut|expireTestFundingIntent|failTest|cancel)/;

async function repair(): Promise<void> {
  for (const id of Object.values(world.applications)) await send(t, { method: 'POST', path: `/v1/platform/applications/${id}/reactivate`, key: OPERATOR_KEY });
  if ((await send(t, { method: 'GET', path: '/v1/auth/session', key: world.account.token })).status === 401) {
    world.account.token = (await must(t, { method: 'POST', path: '/v1/auth/sign-in', body: { email: 'rel-owner@example.org', password: 'correct horse battery staple' } }, 200)).token;
  }
}

describe('auth matrix', () => {
  it('lets exactly the documented credentials through, per environment and application', async () => {
    const failures: string[] = [];
    // every object kind exists, so ownership is checked on real rows, not on 404s for missing ones
    const alpha = world.objects.alpha.test!;
    expect([alpha.routeExecution, alpha.settlement, alpha.delivery, alpha.event, alpha.requestLog].every((id) => typeof id === 'string')).toBe(true);
    const ops = [...t.server.context.spec.operations].sort((a, b) => Number(LAST.test(a.operationId)) - Number(LAST.test(b.operationId)));
    let checked = 0;
    for (const op of ops) {
      const values = pathValues(world, op.path);
      const path = fillPath(op.path, values);
      // foreign credentials first: the allowed ones may change the object (delete, cancel)
      const creds = credentials().sort((a, b) => Number(expected(op, a, values).hasOwnProperty('notAuthFailure')) - Number(expected(op, b, values).hasOwnProperty('notAuthFailure')));
      const statuses = new Set<number>();
      for (const cred of creds) {
        if (cred.kind === 'account') cred.token = world.account.token;
        const want = expected(op, cred, values);
        const headers: Record<string, string> = { 'idempotency-key': idem() };
        if (cred.acting) headers['fundkit-application'] = cred.acting === 'own' ? world.account.application : world.otherAccount.application;
        // the SSE stream would stay open: ask for JSON
        if (op.operationId === 'streamPublicFundingIntentStatus') headers.accept = 'application/json';
        const got = await send(t, { method: op.method.toUpperCase(), path, key: cred.token, body: await bodyFor(op), headers }, op);
        checked++;
        // the session signed out: the next account credential signs in again
        if (op.operationId === 'signOut' && got.status === 204) await repair();
        const who = `${op.operationId} with ${cred.kind}${cred.app ? ` ${cred.app}/${cred.env}` : ''}${cred.acting ? ` acting for its ${cred.acting} application` : ''}`;
        if (got.problems.length > 0) failures.push(`${who}: ${got.problems.join('; ')}`);
        if (op.credentials.size === 0) statuses.add(got.status);
        else if ('notAuthFailure' in want ? got.status === 401 || got.status === 403 : !want.status.includes(got.status)) {
          failures.push(`${who} → ${got.status}, wanted ${'notAuthFailure' in want ? 'not 401/403' : want.status.join('|')}: ${got.text.slice(0, 160)}`);
        }
      }
      // public operations ignore credentials altogether
      if (op.credentials.size === 0 && statuses.size > 1) failures.push(`${op.operationId}: public, yet the answer depends on the credential (${[...statuses]})`);
      await repair();
    }
    expect(checked).toBeGreaterThan(60 * 15 - 1);
    expect(failures).toEqual([]);
    // ~1,000 requests, among them every sign-up and sign-in per credential: each a password hash
    // at N=2^17 (two at a time), seconds apiece on a loaded machine; the bound only stops a hang
  }, 180_000);
});

describe('handoff tokens and foreign callers', () => {
  // Found by the matrix: resume used to consume the token before checking the caller's application
  // and environment, so any other merchant's key burnt the payer's handoff.
  it('another application cannot burn a handoff token it does not own', async () => {
    const o = world.objects.alpha.test!;
    const { handoff_token } = await must(t, { method: 'POST', path: `/v1/checkout_sessions/${o.session.id}/handoff`, key: KEYS.alpha.test.secret, body: {}, headers: { 'idempotency-key': idem() } }, 201);
    const foreign = await send(t, { method: 'POST', path: '/v1/checkout_sessions/resume', key: KEYS.beta.test.secret, body: { handoff_token }, headers: { 'idempotency-key': idem() } });
    expect(foreign.status).toBe(401);
    const owner = await send(t, { method: 'POST', path: '/v1/checkout_sessions/resume', key: KEYS.alpha.test.secret, body: { handoff_token }, headers: { 'idempotency-key': idem() } });
    expect(owner.status).toBe(200);
  });
});
