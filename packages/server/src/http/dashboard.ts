import { existsSync, readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { Router, type Response } from 'express';
import { packageRoot } from '../package-root.js';

/**
 * The built @fundkit/dashboard (a static Preact app) at /dashboard, found the way the checkout's
 * IIFE is: the workspace sibling's dist/. It talks to this server's public API only, so serving it
 * is just files, revalidated on every load (their names carry no hash, see its vite.config.ts).
 */
export function dashboardRouter(dir: string | null = dashboardDir()): Router {
  const router = Router();
  router.get(['/dashboard', '/dashboard/'], (_req, res) => sendIndex(dir, res));
  router.get('/dashboard/assets/:file', (req, res) => {
    const file = String(req.params.file);
    const path = dir && /^[\w.-]+\.(js|css)$/.test(file) ? normalize(join(dir, 'assets', file)) : null;
    if (!path || !existsSync(path)) return void res.status(404).type('text/plain').send('not found');
    res.setHeader('Cache-Control', 'no-cache');
    res.type(file.endsWith('.js') ? 'application/javascript' : 'text/css').send(readFileSync(path));
  });
  return router;
}

function dashboardDir(): string | null {
  const sibling = join(packageRoot(), '..', 'dashboard', 'dist');
  return existsSync(join(sibling, 'index.html')) ? sibling : null;
}

function sendIndex(dir: string | null, res: Response): void {
  if (!dir) return void res.status(404).type('text/plain').send('the dashboard is not built: run pnpm --filter @fundkit/dashboard build');
  res.setHeader('Cache-Control', 'no-store');
  res.type('html').send(readFileSync(join(dir, 'index.html')));
}
