/**
 * The dashboard: its JavaScript and CSS (gzip) and, in Chromium, the time from navigation to the
 * first list rendered (the applications list of a signed-in account, one API round trip).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '@fundkit/server';
import { chromium } from 'playwright-core';
import { gzSize, median, ROOT, RUNS } from './lib.js';

const DIST = join(ROOT, 'packages/dashboard/dist/assets');
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export interface DashboardFigures { files: { name: string; raw: number; gz: number }[]; firstListMs: number }

export async function benchDashboard(): Promise<DashboardFigures> {
  const files = ['dashboard.js', 'dashboard.css'].map((name) => ({ name, raw: readFileSync(join(DIST, name)).length, gz: gzSize(join(DIST, name)) }));
  const api = await createServer({ env: { FUNDKIT_DB: ':memory:', FUNDKIT_DATA_DIR: mkdtempSync(join(tmpdir(), 'fundkit-bench-db-')), LOG_LEVEL: 'silent', FUNDKIT_RATE_LIMIT: '100000' } });
  const { url } = await api.listen(0, '127.0.0.1');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ARGS });
  try {
    // a verified account with one application, signed in through the API
    const { verificationToken } = await api.services.accounts.signUp('bench@example.org', 'bench-password-1');
    await api.services.accounts.verifyEmail(verificationToken);
    const session = (await (await fetch(`${url}/v1/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.org', password: 'bench-password-1' }) })).json()) as { token: string };
    await fetch(`${url}/v1/applications`, { method: 'POST', headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench Shop' }) });
    const times: number[] = [];
    for (let i = 0; i < RUNS + 1; i++) {
      const context = await browser.newContext();
      await context.addInitScript((token: string) => sessionStorage.setItem('fundkit.dashboard.session', token), session.token);
      const tab = await context.newPage();
      // the applications page (the dashboard opens on intents since it reads an application's data)
      await tab.goto(`${url}/dashboard/#/applications`);
      await tab.getByRole('main').getByText('Bench Shop').first().waitFor({ timeout: 15_000 });
      times.push(await tab.evaluate(() => performance.now()));
      await context.close();
      // the first load warms the browser's process and caches: not counted
      if (i === 0) times.pop();
    }
    return { files, firstListMs: median(times) };
  } finally {
    await browser.close();
    await api.close();
  }
}
