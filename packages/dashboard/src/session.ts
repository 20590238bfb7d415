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

const CHOICE = 'fundkit.dashboard.choice';

/** The application and mode last picked in this tab: a reload stays where the person was. */
export function loadChoice(): { appId: string | null; mode: 'test' | 'live' } {
  try {
    const saved = JSON.parse(sessionStorage.getItem(CHOICE) ?? '{}') as { appId?: string; mode?: string };
    return { appId: saved.appId ?? null, mode: saved.mode === 'live' ? 'live' : 'test' };
  } catch {
    return { appId: null, mode: 'test' };
  }
}

export function saveChoice(choice: { appId: string | null; mode: 'test' | 'live' }): void {
  try {
    sessionStorage.setItem(CHOICE, JSON.stringify(choice));
  } catch {
    // as above: the choice then lasts as long as the page
  }
}
