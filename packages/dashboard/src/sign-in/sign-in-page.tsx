import { useState } from 'preact/hooks';
import { isApiError, type Api } from '../api.js';

/** Email and password, labelled for screen readers; the API's message is shown as it is. */
export function SignInPage({ api, onSignedIn }: { api: Api; onSignedIn: (token: string) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const session = await api.signIn(email, password);
      onSignedIn(session.token);
    } catch (err) {
      setError(isApiError(err) ? err.message : 'The server could not be reached.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <main class="narrow">
      <h1>Sign in to Fundkit</h1>
      <form onSubmit={submit}>
        <label for="email">Email</label>
        <input id="email" type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <label for="password">Password</label>
        <input id="password" type="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        <p role="alert" class="error">{error ?? ''}</p>
        <button type="submit" disabled={busy}>Sign in</button>
      </form>
      <p><a href="#/sign-up">Create an account</a> · <a href="#/verify">Verify an email</a></p>
    </main>
  );
}
