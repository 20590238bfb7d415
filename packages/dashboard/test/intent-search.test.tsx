import { render } from 'preact';
import { describe, expect, it } from 'vitest';
import { Api } from '../src/api.js';
import { AppApi } from '../src/app-api.js';
import { IntentsPage } from '../src/intents/intents-page.js';

const list = (async () => new Response(JSON.stringify({ object: 'list', data: [], next_cursor: null }))) as typeof fetch;

describe('the intents page', () => {
  it('opens an intent by its id (or a pasted link ending in it)', async () => {
    const root = document.createElement('div');
    document.body.replaceChildren(root);
    render(<IntentsPage app={new AppApi(new Api('http://api', 'acs_1', list), 'app_1', 'test')} />, root);
    const input = root.querySelector<HTMLInputElement>('#f-id')!;
    input.value = ' http://localhost:4010/dashboard/#/intent/fi_01ABC ';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await Promise.resolve();
    root.querySelector<HTMLFormElement>('form[aria-label="Find an intent by id"]')!.requestSubmit();
    await expect.poll(() => location.hash).toBe('#/intent/fi_01ABC');
  });
});
