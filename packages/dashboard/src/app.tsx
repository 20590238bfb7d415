import { useMemo, useState } from 'preact/hooks';
import { Api } from './api.js';
import { loadSession, saveSession } from './session.js';
import { Shell } from './shell/shell.js';
import { SignInPage } from './sign-in/sign-in-page.js';
import { SignUpPage } from './sign-up/sign-up-page.js';
import { useRoute } from './router.js';

/** Signed out: sign in, or sign up and verify. Signed in: the shell with its pages. */
export function App({ baseUrl }: { baseUrl: string }) {
  const [token, setToken] = useState<string | null>(loadSession());
  const api = useMemo(() => new Api(baseUrl, token), [baseUrl, token]);
  const route = useRoute();

  function signedIn(next: string | null) {
    saveSession(next);
    setToken(next);
  }

  if (!token) {
    if (route.page === 'sign-up' || route.page === 'verify') return <SignUpPage api={api} route={route} />;
    return <SignInPage api={api} onSignedIn={signedIn} />;
  }
  return <Shell api={api} route={route} onSignOut={() => void api.signOut().catch(() => undefined).finally(() => signedIn(null))} />;
}
