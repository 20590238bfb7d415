import { useState } from 'preact/hooks';
import type { Api, Application } from '../api.js';
import { errorText } from '../use-load.js';

/** The application's logo (shown on its checkout): the file goes as it is; the API checks it. */
export function LogoForm({ api, app, onSaved }: { api: Api; app: Application; onSaved: (app: Application) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    if (!file) return;
    setError(null);
    try {
      onSaved(await api.uploadLogo(app.id, file));
    } catch (err) {
      setError(errorText(err));
    }
  }

  return (
    <form class="card" onSubmit={submit} aria-labelledby="logo-heading">
      <h2 id="logo-heading">Logo of {app.name}</h2>
      {app.logo_url ? <img class="logo" src={app.logo_url} alt={`Logo of ${app.name}`} width={64} height={64} /> : <p class="muted">No logo yet.</p>}
      <label for="logo-file">Logo file (PNG, JPEG, WebP or SVG; square, 64–1024 px; at most 512 KiB)</label>
      <input id="logo-file" type="file" accept="image/png,image/jpeg,image/webp,image/svg+xml" required onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
      <p role="alert" class="error">{error ?? ''}</p>
      <button type="submit">Upload logo</button>
    </form>
  );
}
