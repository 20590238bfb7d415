import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, loadConfig } from '../src/index.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** Errors a newcomer meets first: each says what to do next (the page, the file, the command, the form). */
describe('messages that say what to do next', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('an unknown API key: where keys are made and where the sandbox saves its own', async () => {
    const res = await t.request('GET', '/v1/funding-intents', { key: 'sk_test_notAKeyThisServerKnows0001' });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/^invalid API key: /);
    expect(res.body.error.message).toContain("the dashboard's Applications page");
    expect(res.body.error.message).toContain('.fundkit/sandbox-keys.json');
  });

  it('FUNDKIT_ASSETS=USDC: the CODE:ISSUER form', () => {
    expect(() => loadConfig({ FUNDKIT_STELLAR: 'custom', FUNDKIT_ASSETS: 'USDC' })).toThrow('Write each asset as CODE:ISSUER, comma-separated: FUNDKIT_ASSETS=USDC:G…,EURC:G…');
  });

  it('a missing or malformed FUNDKIT_MASTER_KEY: the command that makes one', async () => {
    const silent = pino({ level: 'silent' });
    await expect(createServer({ env: { FUNDKIT_STELLAR: 'pubnet', FUNDKIT_DB: ':memory:' }, logger: silent })).rejects.toThrow('make one with `openssl rand -hex 32`');
    expect(() => loadConfig({ FUNDKIT_MASTER_KEY: 'short' })).toThrow('make one with `openssl rand -hex 32`');
  });
});
