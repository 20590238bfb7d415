/**
 * Guessing passwords: sign-in failures are limited per account and per client with backoff,
 * sign-ups and verifications per client, password hashes at OWASP's parameters (old ones upgraded
 * at the next sign-in), and a bound on hashes at once. All through HTTP, on either engine.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rows, run } from '../helpers/raw-sql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// each password hash is scrypt at N=2^17 (128 MiB, ~0.3 s on an idle core, seconds on a loaded
// machine): these tests make a dozen each, and wait for them however slow the machine is
vi.setConfig({ testTimeout: 240_000, hookTimeout: 120_000 });

const PASSWORD = 'correct-horse-battery';
const open: TestServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function server(env: Record<string, string> = {}): Promise<TestServer> {
  const t = await startTestServer({ env });
  open.push(t);
  return t;
}

/** A verified account through sign-up and the verification link the server logged. */
export async function verifiedAccount(t: TestServer, email: string, headers: Record<string, string> = {}): Promise<void> {
  expect((await t.request('POST', '/v1/auth/sign-up', { body: { email, password: PASSWORD }, headers })).status).toBe(201);
  const line = t.logs.find((l) => l.email === email && typeof l.verify_url === 'string');
  const token = new URL(String(line!.verify_url)).searchParams.get('token');
  expect((await t.request('POST', '/v1/auth/verify-email', { body: { token }, headers })).status).toBe(200);
}

const signIn = (t: TestServer, email: string, password: string, headers: Record<string, string> = {}) =>
  t.request('POST', '/v1/auth/sign-in', { body: { email, password }, headers });

function expectLimited(res: { status: number; headers: Record<string, string>; body: any }, message: RegExp): void {
  expect(res.status).toBe(429);
  expect(res.body.error.code).toBe('RATE_LIMITED');
  expect(res.body.error.retryable).toBe(true);
  expect(res.body.error.message).toMatch(message);
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
}

describe('sign-in failures', () => {
  it('per account: the free failures answer 401, then 429 with Retry-After, even for the right password', async () => {
    const t = await server({ FUNDKIT_SIGNIN_ACCOUNT_FAILURES: '3', FUNDKIT_SIGNIN_CLIENT_FAILURES: '1000' });
    await verifiedAccount(t, 'guessed@example.org');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await signIn(t, 'guessed@example.org', `wrong-${i}`)).status);
    // 3 free failures; the 4th is still a 401 (its password was checked) and starts the backoff
    expect(statuses).toEqual([401, 401, 401, 401]);
    const refused = await signIn(t, 'GUESSED@example.org', PASSWORD);
    expectLimited(refused, /too many failed sign-ins from this account/);
    // the first backoff is 30 s
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(30);
    // another account from the same client is not affected
    await verifiedAccount(t, 'other@example.org');
    expect((await signIn(t, 'other@example.org', PASSWORD)).status).toBe(200);
  });

  it('back off longer after each failure past the free ones, and an unknown email is limited the same way', async () => {
    const t = await server({ FUNDKIT_SIGNIN_ACCOUNT_FAILURES: '1', FUNDKIT_SIGNIN_CLIENT_FAILURES: '1000' });
    const email = 'nobody@example.org';
    expect((await signIn(t, email, 'a')).status).toBe(401);
    expect((await signIn(t, email, 'b')).status).toBe(401);
    const first = Number((await signIn(t, email, 'c')).headers['retry-after']);
    // the block ends (as if its time had passed): the next failure blocks for longer
    await run(t.server.sql, "UPDATE rate_limits SET expire = ? WHERE key LIKE 'signin_blocked:%'", Date.now() - 1);
    expect((await signIn(t, email, 'd')).status).toBe(401);
    const second = await signIn(t, email, 'e');
    expectLimited(second, /this account/);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(first);
  });

  it('per client: failures over many accounts from one address end in 429', async () => {
    const t = await server({ FUNDKIT_SIGNIN_ACCOUNT_FAILURES: '1000', FUNDKIT_SIGNIN_CLIENT_FAILURES: '3' });
    for (let i = 0; i < 4; i++) expect((await signIn(t, `spray-${i}@example.org`, 'wrong')).status).toBe(401);
    expectLimited(await signIn(t, 'spray-9@example.org', 'wrong'), /too many failed sign-ins from this client/);
  });

  it('a correct password clears the account\'s failures', async () => {
    const t = await server({ FUNDKIT_SIGNIN_ACCOUNT_FAILURES: '2', FUNDKIT_SIGNIN_CLIENT_FAILURES: '1000' });
    await verifiedAccount(t, 'typo@example.org');
    for (let round = 0; round < 3; round++) {
      expect((await signIn(t, 'typo@example.org', 'wrong')).status).toBe(401);
      expect((await signIn(t, 'typo@example.org', 'wrong')).status).toBe(401);
      expect((await signIn(t, 'typo@example.org', PASSWORD)).status).toBe(200);
    }
  });
});

describe('sign-ups and verifications', () => {
  it('are limited per client', async () => {
    const t = await server({ FUNDKIT_SIGNUP_LIMIT: '2', FUNDKIT_VERIFY_EMAIL_LIMIT: '2' });
    for (let i = 0; i < 2; i++) expect((await t.request('POST', '/v1/auth/sign-up', { body: { email: `many-${i}@example.org`, password: PASSWORD } })).status).toBe(201);
    expectLimited(await t.request('POST', '/v1/auth/sign-up', { body: { email: 'many-9@example.org', password: PASSWORD } }), /too many sign-ups/);
    for (let i = 0; i < 2; i++) expect((await t.request('POST', '/v1/auth/verify-email', { body: { token: `emv_guess${i}` } })).status).toBe(401);
    expectLimited(await t.request('POST', '/v1/auth/verify-email', { body: { token: 'emv_guess9' } }), /too many email verifications/);
  });
});

describe('behind a proxy (FUNDKIT_TRUST_PROXY)', () => {
  const spray = async (t: TestServer, client: string) => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await signIn(t, `${client}-${i}@example.org`, 'wrong', { 'x-forwarded-for': client })).status);
    return statuses;
  };

  it('limits key on the client the trusted proxy names, so one client does not lock out the others', async () => {
    const t = await server({ FUNDKIT_TRUST_PROXY: 'loopback', FUNDKIT_SIGNIN_CLIENT_FAILURES: '2', FUNDKIT_SIGNIN_ACCOUNT_FAILURES: '1000' });
    expect(await spray(t, '203.0.113.7')).toEqual([401, 401, 401]);
    expectLimited(await signIn(t, 'last@example.org', 'wrong', { 'x-forwarded-for': '203.0.113.7' }), /this client/);
    // another client behind the same proxy still gets its own answers
    expect((await signIn(t, 'fresh@example.org', 'wrong', { 'x-forwarded-for': '198.51.100.9' })).status).toBe(401);
  });

  it('without it, X-Forwarded-For is ignored: a client cannot pose as many', async () => {
    const t = await server({ FUNDKIT_SIGNIN_CLIENT_FAILURES: '2', FUNDKIT_SIGNIN_ACCOUNT_FAILURES: '1000' });
    expect(await spray(t, '203.0.113.7')).toEqual([401, 401, 401]);
    expectLimited(await signIn(t, 'fresh@example.org', 'wrong', { 'x-forwarded-for': '198.51.100.9' }), /this client/);
  });
});

describe('password hashes', () => {
  it('are scrypt at N=2^17, r=8, p=1, and an older hash is upgraded at the next sign-in', async () => {
    const t = await server();
    await verifiedAccount(t, 'hash@example.org');
    const stored = async () => (await rows<{ password_hash: string }>(t.server.sql, 'SELECT password_hash FROM accounts WHERE email = ?', 'hash@example.org'))[0]!.password_hash;
    expect((await stored()).split('$').slice(0, 4)).toEqual(['scrypt', '131072', '8', '1']);
    // the same password hashed as before this change: scrypt N=2^14 (salt "salt-16-bytes!!!")
    const old = 'scrypt$16384$8$1$c2FsdC0xNi1ieXRlcyEhIQ==$DUyRhMykzO8S5HCfc1fd05+BV4vq8t/G3s/gxHqLo1E=';
    await run(t.server.sql, 'UPDATE accounts SET password_hash = ? WHERE email = ?', old, 'hash@example.org');
    expect((await signIn(t, 'hash@example.org', 'not-it')).status).toBe(401);
    expect(await stored()).toBe(old);
    expect((await signIn(t, 'hash@example.org', PASSWORD)).status).toBe(200);
    const upgraded = await stored();
    expect(upgraded.split('$').slice(0, 4)).toEqual(['scrypt', '131072', '8', '1']);
    expect((await signIn(t, 'hash@example.org', PASSWORD)).status).toBe(200);
    expect(await stored()).toBe(upgraded);
  });

  it('run a bounded number at once: past the queue, a sign-in is answered 429 at once', async () => {
    const t = await server({ FUNDKIT_PASSWORD_HASH_CONCURRENCY: '1', FUNDKIT_PASSWORD_HASH_QUEUE: '0', FUNDKIT_SIGNIN_ACCOUNT_FAILURES: '1000', FUNDKIT_SIGNIN_CLIENT_FAILURES: '1000' });
    await verifiedAccount(t, 'busy@example.org');
    const answers = await Promise.all(Array.from({ length: 8 }, () => signIn(t, 'busy@example.org', PASSWORD)));
    const busy = answers.filter((a) => a.status === 429);
    // one hash at a time and none waiting: 8 sign-ins sent together cannot all be hashed
    expect(busy.length).toBeGreaterThan(0);
    for (const res of busy) expectLimited(res, /busy checking other passwords/);
    expect(answers.filter((a) => a.status === 200).length + busy.length).toBe(8);
  });
});
