import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Api } from '../api.js';
import { AppApi, type Mode } from '../app-api.js';
import { ApplicationsPage } from '../applications/applications-page.js';
import { href, type Route } from '../router.js';
import { loadChoice, saveChoice } from '../session.js';
import { useLoad } from '../use-load.js';
import { AppPages } from './app-pages.js';
import { networkNote } from './network-note.js';

const NAV: [page: string, label: string][] = [
  ['today', 'Today'],
  ['intents', 'Intents'],
  ['money', 'Balances'],
  ['webhooks', 'Webhooks'],
  ['events', 'Events'],
  ['logs', 'Request logs'],
  ['applications', 'Applications'],
];

/** The signed-in frame: navigation, the application and mode every page acts in, the page. */
export function Shell({ api, route, onSignOut }: { api: Api; route: Route; onSignOut: () => void }) {
  const apps = useLoad(() => api.listApplications(), [api]);
  const about = useLoad(() => api.about(), [api]);
  const [choice, setChoice] = useState(loadChoice);
  const list = apps.data?.data ?? [];
  // the saved application if it is still there, otherwise the newest one
  const appId = list.some((a) => a.id === choice.appId) ? choice.appId : list[0]?.id ?? null;
  const appApi = useMemo(() => (appId ? new AppApi(api, appId, choice.mode) : null), [api, appId, choice.mode]);
  const current = route.page === 'intent' ? 'intents' : route.page;

  // an account with no application yet starts on the page that creates one, and stays there
  useEffect(() => {
    if (apps.data && apps.data.data.length === 0 && current !== 'applications') location.replace(href('applications'));
  }, [apps.data, current]);

  function choose(next: Partial<{ appId: string | null; mode: Mode }>) {
    const merged = { appId, mode: choice.mode, ...next };
    saveChoice(merged);
    setChoice(merged);
  }

  return (
    <>
      <header class={`top ${choice.mode}`}>
        <strong>Fundkit</strong>
        <nav aria-label="Main">
          {NAV.map(([page, label]) => (
            <a key={page} href={href(page)} aria-current={current === page ? 'page' : undefined}>{label}</a>
          ))}
        </nav>
        <div class="inline">
          <label for="pick-app">Application</label>
          <select id="pick-app" value={appId ?? ''} disabled={list.length === 0} onChange={(e) => choose({ appId: e.currentTarget.value })}>
            {list.map((app) => <option key={app.id} value={app.id}>{app.name}</option>)}
          </select>
          <label for="pick-mode">Mode</label>
          <select id="pick-mode" value={choice.mode} onChange={(e) => choose({ mode: e.currentTarget.value as Mode })}>
            <option value="test">Test</option>
            <option value="live">Live</option>
          </select>
        </div>
        <button class="link" onClick={onSignOut}>Sign out</button>
      </header>
      {/* a landmark of its own, so a screen reader's landmark list reaches it (axe: region) */}
      <aside aria-label="Mode and network">
        <p class={`mode-banner ${choice.mode}`} role="note">
          {networkNote(about.data?.network ?? null, choice.mode)}
        </p>
      </aside>
      {apps.loading && !apps.data ? (
        <main aria-busy="true"><p class="muted">Loading…</p></main>
      ) : apps.error && !apps.data ? (
        <main><p role="alert" class="error">{apps.error}</p></main>
      ) : current === 'applications' || !appApi ? (
        <ApplicationsPage api={api} onChanged={apps.reload} />
      ) : (
        <AppPages app={appApi} route={route} />
      )}
    </>
  );
}
