import { render } from 'preact';
import { describe, expect, it } from 'vitest';
import { Api } from '../src/api.js';
import { CreateApplicationForm } from '../src/applications/create-application-form.js';

describe('the new-application form', () => {
  it('says a funding intent needs the settlement address, beside its field', () => {
    const root = document.createElement('div');
    document.body.replaceChildren(root);
    render(<CreateApplicationForm api={new Api('http://api', 'acs_1')} onCreated={() => undefined} />, root);
    const field = root.querySelector('#app-address')!;
    const hint = root.querySelector(`#${field.getAttribute('aria-describedby')}`)?.textContent ?? '';
    expect(root.querySelector('label[for="app-address"]')?.textContent).not.toContain('optional');
    expect(hint).toContain('Creating a funding intent needs it');
    expect(hint).toContain('destination_address');
  });
});
