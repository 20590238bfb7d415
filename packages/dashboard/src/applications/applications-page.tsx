import { useState } from 'preact/hooks';
import type { Api, Application } from '../api.js';
import { formatDate } from '../format.js';
import { useLoad } from '../use-load.js';
import { CreateApplicationForm } from './create-application-form.js';
import { EditApplicationForm } from './edit-application-form.js';
import { KeysPanel } from './keys-panel.js';
import { LogoForm } from './logo-form.js';

/** The account's applications; picking one shows its keys. */
export function ApplicationsPage({ api, onChanged }: { api: Api; onChanged?: () => void }) {
  const apps = useLoad(() => api.listApplications(), [api]);
  const [selected, setSelected] = useState<Application | null>(null);
  return (
    <main>
      <h1>Applications</h1>
      <CreateApplicationForm api={api} onCreated={(app) => { apps.reload(); onChanged?.(); setSelected(app); }} />
      <section aria-labelledby="apps-heading" aria-busy={apps.loading}>
        <h2 id="apps-heading">Your applications</h2>
        {apps.error && <p role="alert" class="error">{apps.error}</p>}
        {apps.loading && !apps.data && <p class="muted">Loading…</p>}
        {apps.data && apps.data.data.length === 0 && <p class="muted">No applications yet: create one above.</p>}
        <ul class="rows">
          {apps.data?.data.map((app) => (
            <li key={app.id}>
              <button class="link" aria-pressed={selected?.id === app.id} onClick={() => setSelected(app)}>{app.name}</button>
              <code>{app.id}</code>
              <span class="muted">{formatDate(app.created_at)}</span>
            </li>
          ))}
        </ul>
      </section>
      {selected && <EditApplicationForm key={selected.id} api={api} app={selected} onSaved={(app) => { apps.reload(); onChanged?.(); setSelected(app); }} />}
      {selected && <LogoForm key={`logo-${selected.id}`} api={api} app={selected} onSaved={(app) => { apps.reload(); setSelected(app); }} />}
      {selected && <KeysPanel api={api} app={selected} />}
    </main>
  );
}
