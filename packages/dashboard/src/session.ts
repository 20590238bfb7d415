/**
 * The account session lives in sessionStorage: it ends with the tab, and a secret key is never
 * stored at all (the dashboard only ever holds the session).
 */
const KEY = 'fundkit.dashboard.session';

export function loadSession(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function saveSession(token: string | null): void {
  try {
    if (token) sessionStorage.setItem(KEY, token);
    else sessionStorage.removeItem(KEY);
  } catch {
    // storage disabled: the session then lasts as long as the page
  }
}
