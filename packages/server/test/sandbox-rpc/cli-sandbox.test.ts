/** `fundkit sandbox` through runCli in-process: its flags, its default file and its stop. */
import { mkdtempSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rpc } from '@stellar/stellar-sdk';
import { runCli, type CliIo } from '../../src/cli/index.js';

const dir = mkdtempSync(join(tmpdir(), 'fundkit-sandbox-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io(controller: AbortController) {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = {
    stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: { FUNDKIT_DATA_DIR: join(dir, 'data') }, cwd: dir, signal: controller.signal,
  };
  return { io: value, out, err };
}

describe('fundkit sandbox (runCli)', () => {
  it('keeps its own SQLite file under the data dir, keeps time with --ledger-seconds and stops when told', async () => {
    const controller = new AbortController();
    const { io: cliIo, out } = io(controller);
    const done = runCli(['sandbox', '--port', '0', '--ledger-seconds', '5', '--json'], cliIo);
    await expect.poll(() => out.join('')).toContain('"ready":true');
    const banner = JSON.parse(out.join(''));
    expect(banner.db).toBe(join(dir, 'data', 'sandbox.db'));
    expect(existsSync(banner.db)).toBe(true);
    const server = new rpc.Server(banner.rpc, { allowHttp: true });
    expect((await server.getNetwork()).passphrase).toBe(banner.passphrase);
    expect(banner.ledgerSeconds).toBe(5);
    expect((await server.getLatestLedger()).sequence).toBeGreaterThan(1);
    controller.abort();
    expect(await done).toBe(0);
  });

  it('refuses a bad --port or --ledger-seconds, and flags it does not know (usage, exit 2)', async () => {
    for (const args of [['--port', 'eighty'], ['--ledger-seconds', '-1'], ['--port', '70000'], ['--horizon-url', 'x']]) {
      const { io: cliIo, err } = io(new AbortController());
      expect(await runCli(['sandbox', ...args], cliIo)).toBe(2);
      expect(err.join('')).toMatch(/--(port|ledger-seconds|horizon-url)/);
    }
  });
});
