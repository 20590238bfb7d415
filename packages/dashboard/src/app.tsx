import { useMemo, useState } from 'preact/hooks';
import { Api } from './api.js';
import { ApplicationsPage } from './applications/applications-page.js';
import { loadSession, saveSession } from './session.js';
import { SignInPage } from './sign-in/sign-in-page.js';

/** Signed out: the sign-in page. Signed in: the header with sign-out, then the page. */
export function App({ baseUrl }: { baseUrl: string }) {
  const [token, setToken] = useState<string | null>(loadSession());
  const api = useMemo(() => new Api(baseUrl, token), [baseUrl, token]);

  function signedIn(next: string | null) {
    saveSession(next);
    setToken(next);
  }

  if (!token) return <SignInPage api={api} onSignedIn={signedIn} />;
  return (
    <>
      <header class="top">
        <strong>Fundkit</strong>
        <nav aria-label="Main"><a href="/dashboard/" aria-current="page">Applications</a></nav>
        <button class="link" onClick={() => void api.signOut().catch(() => undefined).finally(() => signedIn(null))}>Sign out</button>
      </header>
      <ApplicationsPage api={api} />
    </>
  );
}
