import { render } from 'preact';
import { describe, expect, it } from 'vitest';
import { Api } from '../src/api.js';
import { AppApi, type Intent } from '../src/app-api.js';
import { TodayPage } from '../src/today/today-page.js';
import { summariseDay } from '../src/today/today-summary.js';

const now = new Date(2026, 11, 6, 15, 0);
const at = (day: number, hour: number) => new Date(2026, 11, day, hour, 5).toISOString();
const intent = (status: string, created_at: string, amount: string, asset = 'USDC') =>
  ({ id: `fi_${Math.random()}`, status, created_at, received_amount: status === 'CREDITED' ? amount : null, requirement: { amount, asset } }) as Intent;

const INTENTS = [
  intent('CREDITED', at(6, 9), '0.1000000'),
  intent('CREDITED', at(6, 9), '0.2000000'),
  intent('CREDITED', at(6, 14), '5.0000000', 'EURC'),
  intent('FAILED', at(6, 10), '3.0000000'),
  intent('EXPIRED', at(6, 11), '3.0000000'),
  intent('AWAITING_PAYMENT', at(6, 14), '1.0000000'),
  intent('CREDITED', at(5, 9), '100.0000000'), // yesterday: not counted
];

describe("today's overview", () => {
  it('sums the credited volume exactly per asset, counts payments, failures and open intents, by hour', () => {
    const day = summariseDay(INTENTS, now);
    expect(day.volume).toEqual([['USDC', '0.3000000'], ['EURC', '5.0000000']]);
    expect([day.credited, day.failed, day.open]).toEqual([3, 2, 1]);
    expect(day.byHour[9]).toBe(2);
    expect(day.byHour[14]).toBe(2);
  });

  it('shows the totals and a chart of the hours', async () => {
    const server = (async () => new Response(JSON.stringify({ object: 'list', data: INTENTS.map((i) => ({ ...i, created_at: new Date().toISOString() })), next_cursor: null }))) as typeof fetch;
    const root = document.createElement('div');
    document.body.replaceChildren(root);
    render(<TodayPage app={new AppApi(new Api('http://api', 'acs_1', server), 'app_1', 'test')} />, root);
    await expect.poll(() => root.querySelector('section.tiles')?.textContent ?? '').toContain('Payments credited4');
    expect(root.querySelector('svg[role=img]')?.getAttribute('aria-label')).toMatch(/^Intents created per hour today/);
  });
});
