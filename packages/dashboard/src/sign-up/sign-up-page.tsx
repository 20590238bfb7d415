import { useState } from 'preact/hooks';
import type { Api } from '../api.js';
import { href, type Route } from '../router.js';
import { errorText } from '../use-load.js';
import { VerifyForm } from './verify-form.js';

/**
 * Sign up, then verify. The reference server has no mailer: it prints the verification link where
 * the person running it sees it (DESIGN §9), and the link (or its token) is pasted here.
 */
export function SignUpPage({ api, route }: { api: Api; route: Route }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(route.page === 'verify' ? '' : null);
  // only the sandbox answers with the link (it has no mailer); elsewhere it comes by email
  const [sandboxLink, setSandboxLink] = useState<string | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    try {
      const account = await api.signUp(email, password);
      setSandboxLink(account.sandbox_verify_url ?? null);
      setSentTo(account.email);
    } catch (err) {
      setError(errorText(err));
    }
  }

  return (
    <main class="narrow">
      <h1>{sentTo === null ? 'Create a Fundkit account' : 'Verify your email'}</h1>
      {sentTo === null ? (
        <form onSubmit={submit}>
          <label for="su-email">Email</label>
          <input id="su-email" type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          <label for="su-password">Password</label>
          <input id="su-password" type="password" autocomplete="new-password" required minLength={10} value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
          <p role="alert" class="error">{error ?? ''}</p>
          <button type="submit">Sign up</button>
        </form>
      ) : (
        <VerifyForm api={api} email={sentTo} sandboxLink={sandboxLink} initialToken={route.params.get('token') ?? sandboxLink ?? ''}
          verifyOnOpen={route.page === 'verify' && route.params.has('token')} />
      )}
      <p><a href={href('sign-in')}>Already have an account? Sign in</a></p>
    </main>
  );
}
