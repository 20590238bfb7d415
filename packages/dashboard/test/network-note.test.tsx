import { render } from 'preact';
import { describe, expect, it } from 'vitest';
import { Api } from '../src/api.js';
import { Shell } from '../src/shell/shell.js';
import { parseRoute } from '../src/router.js';

/** A server on `network` with one application and nothing in it. */
function serverOn(network: string) {
  return (async (url: string | URL | Request) => {
    const path = new URL(String(url)).pathname;
    if (path === '/v1') return new Response(JSON.stringify({ object: 'api', name: 'Fundkit API', version: '0.1.0', interface_version: '1', network, links: {} }));
    if (path === '/v1/applications') {
      return new Response(JSON.stringify({ object: 'list', data: [{ id: 'app_1', name: 'Shop', settlement_address: null, logo_url: null, created_at: '2026-12-06T00:00:00Z' }], next_cursor: null }));
    }
    return new Response(JSON.stringify({ object: 'list', data: [], next_cursor: null }));
  }) as typeof fetch;
}

async function noteOn(network: string): Promise<string> {
  localStorage.clear();
  const root = document.createElement('div');
  document.body.replaceChildren(root);
  render(<Shell api={new Api('http://api', 'acs_1', serverOn(network))} route={parseRoute('#/money')} onSignOut={() => undefined} />, root);
  const note = () => root.querySelector('[role="note"]')?.textContent ?? '';
  await expect.poll(note).not.toMatch(/^Test mode\.$/);
  return note();
}

describe('the header says which network the server is on', () => {
  it('never "sandbox data, no real money" off the sandbox', async () => {
    expect(await noteOn('sandbox')).toBe('Test mode: sandbox data, no real money.');
    expect(await noteOn('testnet')).toBe('Test mode on the Stellar test network: testnet money, no real value.');
    expect(await noteOn('custom')).toMatch(/^Test mode on a custom Stellar network/);
    expect(await noteOn('pubnet')).toBe('Test mode: this server is on the Stellar public network and serves live keys only.');
  });
});
