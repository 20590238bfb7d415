import { useEffect, useState } from 'preact/hooks';
import type { Api } from '../api.js';
import { href } from '../router.js';
import { errorText } from '../use-load.js';

/** Accepts a printed link as it is (its token is in the query or, for the dashboard's, the hash), or only the token. */
export function tokenOf(input: string): string {
  const text = input.trim();
  return /[?&#]token=([^&\s#]+)/.exec(text)?.[1] ?? text;
}

/**
 * `verifyOnOpen`: the page was opened from the printed link (`#/verify?token=…`), so opening it is
 * the person's intent to verify: it verifies at once, no click needed.
 */
export function VerifyForm({ api, email, initialToken, sandboxLink = null, verifyOnOpen = false }: { api: Api; email: string; initialToken: string; sandboxLink?: string | null; verifyOnOpen?: boolean }) {
  const [link, setLink] = useState(initialToken);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  async function verify(input: string) {
    setError(null);
    try {
      await api.verifyEmail(tokenOf(input));
      setDone(true);
    } catch (err) {
      setError(errorText(err));
    }
  }

  useEffect(() => {
    if (verifyOnOpen && initialToken) void verify(initialToken);
  }, [verifyOnOpen, initialToken]);

  async function submit(event: Event) {
    event.preventDefault();
    await verify(link);
  }

  if (done) return <p role="status">Email verified. <a href={href('sign-in')}>Sign in</a></p>;
  return (
    <form onSubmit={submit}>
      <p>
        {email ? `We created ${email}. ` : ''}The server printed a verification link where it logs (its terminal, on the
        sandbox). Paste the link or its token here.
      </p>
      {sandboxLink && (
        <p class="secret" role="status">
          Sandbox: the verification link is <a href={sandboxLink}>{sandboxLink}</a> (filled in below).
        </p>
      )}
      <label for="verify-link">Verification link</label>
      <input id="verify-link" required value={link} onInput={(e) => setLink(e.currentTarget.value)} />
      <p role="alert" class="error">{error ?? ''}</p>
      <button type="submit">Verify email</button>
    </form>
  );
}
