import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ConfigError, createServer, loadConfig } from '../src/index.js';
import { readSandboxKeys } from '../src/sandbox-keys.js';
import { KEYS } from './helpers/server.js';
import { openStatusStream } from './helpers/status-stream.js';

const silent = pino({ level: 'silent' });
const tmp = () => mkdtempSync(join(tmpdir(), 'fundkit-start-'));

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 4010, dbPath: '.fundkit/fundkit.db', stellar: 'sandbox', quoteTtlSeconds: 60, rateLimit: { ratePerSecond: 100, burst: 200 } });
    expect(config.webhookRetryScheduleMs.slice(0, 3)).toEqual([60_000, 300_000, 1_800_000]);
    expect(loadConfig({ FUNDKIT_WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s' }).webhookRetryScheduleMs).toEqual([1000, 1000, 1000]);
    expect(config).toMatchObject({ host: null, trustProxy: false, operatorKey: null, passwordHashes: { concurrency: 2, queue: 32 } });
  });

  it('reads FUNDKIT_TRUST_PROXY in Express\'s forms', () => {
    expect(loadConfig({ FUNDKIT_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ FUNDKIT_TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({ FUNDKIT_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ FUNDKIT_TRUST_PROXY: 'loopback, 10.0.0.0/8,fc00::/7' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', 'fc00::/7']);
  });

  it.each([
    [{ PORT: 'abc' }, /^PORT /],
    [{ PORT: '70000' }, /^PORT /],
    [{ FUNDKIT_STELLAR: 'mainnet' }, /^FUNDKIT_STELLAR /],
    [{ FUNDKIT_HORIZON_URL: 'ftp://x' }, /^FUNDKIT_HORIZON_URL /],
    [{ FUNDKIT_MASTER_KEY: 'short' }, /^FUNDKIT_MASTER_KEY /],
    [{ FUNDKIT_QUOTE_TTL_SECONDS: '0' }, /^FUNDKIT_QUOTE_TTL_SECONDS /],
    [{ FUNDKIT_WEBHOOK_RETRY_SCHEDULE: '1m,soon' }, /^FUNDKIT_WEBHOOK_RETRY_SCHEDULE /],
    [{ FUNDKIT_RATE_LIMIT: '-5' }, /^FUNDKIT_RATE_LIMIT /],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL /],
    [{ FUNDKIT_OPERATOR_KEY: 'op_0123456789abcdef0123456789' }, /^FUNDKIT_OPERATOR_KEY must be at least 32 characters .*make one with: openssl rand -hex 32$/],
    [{ FUNDKIT_TRUST_PROXY: '10.0.0.0/99' }, /^FUNDKIT_TRUST_PROXY /],
    [{ HOST: 'http://x' }, /^HOST /],
  ])('%j stops start-up with a line naming the variable', (env, pattern) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(pattern);
  });

  it('pubnet without a master key is refused', async () => {
    await expect(createServer({ env: { FUNDKIT_STELLAR: 'pubnet', FUNDKIT_DB: ':memory:' }, logger: silent })).rejects.toThrow(/FUNDKIT_MASTER_KEY/);
  });
});

describe('bootstrap', () => {
  it('is applied idempotently at every start', async () => {
    const dir = tmp();
    const bootstrapPath = join(dir, 'bootstrap.json');
    writeFileSync(bootstrapPath, JSON.stringify({ applications: [{ name: 'Alpha', secret_keys: [KEYS.alphaSecretTest], publishable_keys: [KEYS.alphaPublishableTest] }] }));
    const env = { FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATA_DIR: dir, FUNDKIT_BOOTSTRAP: bootstrapPath };
    for (let i = 0; i < 2; i++) {
      const server = await createServer({ env, logger: silent });
      const counts = server.db.prepare('SELECT (SELECT COUNT(*) FROM applications) AS apps, (SELECT COUNT(*) FROM api_keys) AS keys').get();
      expect(counts).toEqual({ apps: 1, keys: 2 });
      expect(server.db.pragma('journal_mode', { simple: true })).toBe('wal');
      void server.close();
    }
  });

  it('a malformed bootstrap file stops start-up naming FUNDKIT_BOOTSTRAP', async () => {
    const dir = tmp();
    const path = join(dir, 'b.json');
    writeFileSync(path, JSON.stringify({ applications: [{ name: 'A', secret_keys: ['pk_test_wrongKind0000000000'] }] }));
    await expect(createServer({ env: { FUNDKIT_DB: ':memory:', FUNDKIT_BOOTSTRAP: path }, logger: silent })).rejects.toThrow(/^FUNDKIT_BOOTSTRAP: applications\[0\]\.secret_keys\[0\]/);
  });

  it('without a bootstrap file the first start creates and saves a sandbox application', async () => {
    const dir = tmp();
    const env = { FUNDKIT_DB: join(dir, 'fundkit.db'), FUNDKIT_DATA_DIR: dir };
    const logged: string[] = [];
    const first = await createServer({ env, logger: pino({ level: 'info' }, { write: (line: string) => void logged.push(line) }) });
    const saved = JSON.parse(readFileSync(join(dir, 'sandbox-keys.json'), 'utf8'));
    expect(saved.applications[0].secret_keys[0]).toMatch(/^sk_test_/);
    expect(saved.applications[0].publishable_keys[0]).toMatch(/^pk_test_/);
    // the log says where the keys are, never the secret key itself (logs are shipped and kept)
    expect(logged.join('')).toContain('sandbox-keys.json');
    expect(logged.join('')).not.toContain(saved.applications[0].secret_keys[0]);
    void first.close();
    const second = await createServer({ env, logger: silent });
    expect(second.db.prepare('SELECT COUNT(*) AS n FROM api_keys').get()).toEqual({ n: 2 });
    void second.close();
  });
});

describe('the process', () => {
  const main = join(import.meta.dirname, '..', 'src', 'main.ts');
  function run(env: Record<string, string>) {
    // cwd at the repository root, where tsx resolves; every path the server writes is set in env
    return spawn(process.execPath, ['--import', 'tsx', main], { env: { ...process.env, ...env }, cwd: join(import.meta.dirname, '..', '..', '..') });
  }

  it('invalid configuration: exit code 2 and one clear line', async () => {
    const child = run({ PORT: 'nope' });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual(['fundkit-server: PORT must be an integer between 0 and 65535, got "nope"']);
  });

  it('serves, then shuts down gracefully on SIGTERM, ending the status streams payers have open', async () => {
    const dir = tmp();
    const child = run({ PORT: '0', FUNDKIT_DB: join(dir, 'db.sqlite'), FUNDKIT_DATA_DIR: dir });
    let stdout = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        stdout += d;
        const match = /"url":"(http:[^"]+)"/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      child.on('exit', () => reject(new Error(`exited early: ${stdout}`)));
    });
    const res = await fetch(`${url}/v1/unknown`);
    expect(res.status).toBe(404);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    // a payer's checkout page open: before, the stream held the shutdown until the 10 s
    // deadline ended the process with code 1
    const { secretKey, publishableKey } = readSandboxKeys(join(dir, 'sandbox-keys.json'))!;
    const created = await fetch(`${url}/v1/funding-intents`, {
      method: 'POST', headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ amount: '5', asset: 'USDC' }),
    });
    const intent = await created.json() as { id: string };
    expect(created.status, JSON.stringify(intent)).toBe(201);
    const stream = await openStatusStream(url, intent.id, publishableKey!);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await stream.ended;
    expect(stdout).toContain('shutting down');
  }, 60_000);
});
