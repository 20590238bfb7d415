import { render } from 'preact';
import { describe, expect, it } from 'vitest';
import { Api } from '../src/api.js';
import { KeysPanel } from '../src/applications/keys-panel.js';

const KEY = 'sk_test_newKeyShownOnce00000000001';

/** A server that lists no keys and makes KEY. */
const server = (async (_url: string | URL | Request, init?: RequestInit) => {
  if (init?.method === 'POST') return new Response(JSON.stringify({ id: 'key_1', object: 'api_key', key: KEY, type: 'secret', environment: 'test' }), { status: 201 });
  return new Response(JSON.stringify({ object: 'list', data: [], next_cursor: null }));
}) as typeof fetch;

describe('a new key', () => {
  it('has a Copy button that puts the key on the clipboard', async () => {
    const root = document.createElement('div');
    document.body.replaceChildren(root);
    render(<KeysPanel api={new Api('http://api', 'acs_1', server)} app={{ id: 'app_1', name: 'Shop', settlement_address: null, default_deposit_type: 'account', logo_url: null, created_at: '' }} />, root);
    const button = (name: string) => [...root.querySelectorAll('button')].find((b) => b.textContent === name);
    button('Create key')!.click();
    await expect.poll(() => button('Copy key')).toBeDefined();
    button('Copy key')!.click();
    await expect.poll(() => root.textContent).toContain('Copied.');
    expect(await navigator.clipboard.readText()).toBe(KEY);
  });
});
