import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../../src/cli/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FAST_ENV } from '../pipeline/helpers.js';
import { unfundedSandbox, type SandboxDatabase } from './helpers.js';

/**
 * A server whose treasury has no funds starts anyway, says at warn what is missing, and fills its
 * deposit pool once the treasury is funded, without a restart.
 */
let sb: SandboxDatabase;
let t: TestServer;

beforeAll(async () => {
  sb = await unfundedSandbox();
  t = await startTestServer({ env: { ...FAST_ENV, ...sb.env } });
});
afterAll(async () => {
  await t?.close();
  await sb?.close();
});

const pool = () => t.server.services.pipeline.pipeline.pool!;
const readyCounts = async () => ({ USDC: await pool().ready('USDC'), EURC: await pool().ready('EURC'), XLM: await pool().ready('XLM') });

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function treasuryWarnings(): string[] {
  return t.logs
    .filter((l) => l.level === 40)
    .map((l) => (l.err as { message?: string } | undefined)?.message ?? '')
    .filter((m) => m.includes(sb.treasury));
}

describe('a server whose treasury is unfunded', () => {
  it('starts, answers, and warns what the treasury lacks with the fundkit treasury --fund hint', async () => {
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    await until('a warning about the treasury', async () => treasuryWarnings().length > 0);
    const [warning] = treasuryWarnings();
    expect(warning).toContain('the account does not exist on the network');
    // 2 reserves + 2 trustlines + 2 channels × 20 + 4 token pool accounts × 2 + 2 XLM ones × 1.5 + 4 fees
    expect(warning).toContain('needs 53.00004 XLM more');
    expect(warning).toContain('fundkit treasury --fund');
    expect(await readyCounts()).toEqual({ USDC: 0, EURC: 0, XLM: 0 });
  });

  it('logs the failing deposit batch once with its cause and stack, then summaries with a count, not a stack every retry', async () => {
    const poolLines = () => t.logs.filter((l) => l.worker === 'deposit-pool');
    await until('a summary of the repeated failures', async () => poolLines().some((l) => typeof l.repeats === 'number'));
    const withStack = poolLines().filter((l) => l.err !== undefined);
    expect(withStack).toHaveLength(1);
    expect((withStack[0]!.err as { message: string }).message).toContain('fundkit treasury --fund');
    const summary = poolLines().find((l) => typeof l.repeats === 'number')!;
    expect(summary.repeats).toBeGreaterThan(0);
    expect(String(summary.cause)).toContain('fundkit treasury --fund');
  });

  it('fills the pool once the treasury is funded, without a restart', async () => {
    const funded = await fetch(`${t.url}/sandbox/friendbot?addr=${sb.treasury}`);
    expect(funded.status).toBe(200);
    await until('the deposit pool to fill', async () => Object.values(await readyCounts()).every((n) => n === 2));
    expect(await readyCounts()).toEqual({ USDC: 2, EURC: 2, XLM: 2 });
  });

  it('fundkit treasury then counts the pool as made and only the trustlines as missing', async () => {
    const out: string[] = [];
    const io: CliIo = { stdout: (s) => void out.push(s), stderr: () => undefined, env: sb.env, cwd: sb.dir };
    expect(await runCli(['treasury', '--json'], io)).toBe(1);
    const report = JSON.parse(out.join(''));
    expect(report.pool).toEqual({ size_per_asset: 2, ready: { USDC: 2, EURC: 2, XLM: 2 }, to_create: { USDC: 0, EURC: 0, XLM: 0 } });
    // the channels paid the pool batches' fees out of their 20 XLM
    for (const c of report.channels) expect(c.exists && Number(c.xlm) > 19.99 && Number(c.xlm) <= 20).toBe(true);
    // 10,000 from the friendbot − 2 channels × 20 − that transaction's fee (2 × 100 stroops); the pool's batches' fees are the channels'
    expect(report.xlm).toBe('9959.9999800');
    // sponsoring: 2 × 4 (USDC) + 2 × 4 (EURC) + 2 × 3 (XLM) = 22 reserves, with the account's 2
    expect(report.needs[0]).toMatchObject({ item: 'account', count: 24, xlm: '12.0000000' });
    expect(report.shortfall_xlm).toBe('0.0000000');
    expect(report.missing_trustlines).toEqual(['USDC', 'EURC']);
  });
});
