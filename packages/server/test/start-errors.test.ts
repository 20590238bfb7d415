import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { explainStartFailure } from '../src/start-errors.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const main = join(import.meta.dirname, '..', 'src', 'main.ts');
const tmp = () => mkdtempSync(join(tmpdir(), 'fundkit-taken-'));
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** `pnpm start`'s process (main.ts), as startup.test.ts runs it */
function run(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', main], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, cwd: join(import.meta.dirname, '..', '..', '..') });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, exited, out: () => stdout, err: () => stderr };
}

describe('a start where something is already running', () => {
  let fundkit: TestServer | null = null;
  afterEach(async () => {
    await fundkit?.close();
    fundkit = null;
  });

  it('on a port a Fundkit server holds: says a Fundkit server answers there and how to start a second one (PORT=…)', async () => {
    fundkit = await startTestServer();
    const port = new URL(fundkit.url).port;
    const dir = tmp();
    const second = run({ PORT: port, FUNDKIT_DB: join(dir, 'db.sqlite'), FUNDKIT_DATA_DIR: dir });
    expect(await second.exited).toBe(1);
    const said = second.err();
    expect(said).toContain(`port ${port} is taken: a Fundkit server (Fundkit API`);
    expect(said).toContain('sandbox network) already answers');
    expect(said).toContain(`PORT=${Number(port) + 10} FUNDKIT_DATA_DIR=`);
    expect(said).not.toContain('EADDRINUSE');
    // a whole server start (sandbox thread, deposit pool) on a loaded machine: a generous budget
  }, 240_000);

  it('on a port another program holds: says it is not Fundkit', async () => {
    const other = createHttpServer((_req, res) => res.writeHead(404).end('nope'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const port = (other.address() as AddressInfo).port;
    const said = await explainStartFailure(Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' }), port);
    other.close();
    expect(said).toContain(`port ${port} is taken: a server that is not Fundkit (GET /v1 answered HTTP 404)`);
    expect(said).toContain(`PORT=${port + 10}`);
  });

  it('a second start from the same folder: says a server is already running from it', async () => {
    const dir = tmp();
    const env = { FUNDKIT_DB: join(dir, 'db.sqlite'), FUNDKIT_DATA_DIR: dir };
    const first = run({ ...env, PORT: '0' });
    await expect.poll(() => first.out(), { timeout: 180_000 }).toContain('Dashboard login');
    const second = run({ ...env, PORT: '0' });
    expect(await second.exited).toBe(1);
    expect(second.err()).toContain('a server is already running from this folder');
    expect(second.err()).toContain('FUNDKIT_DATA_DIR=');
  }, 360_000);
});
