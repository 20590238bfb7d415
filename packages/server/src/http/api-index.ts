import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { packageRoot } from '../package-root.js';
import type { RequestHandler } from 'express';

/**
 * GET /v1, the banner's "API" link: what answers there, which network it is on and where to go
 * next. Public and constant; the dashboard reads the network from it to say which one it shows.
 * Outside the contract, as /healthz is: INTERFACE.md puts every API path under `/v1/`.
 */
export function apiIndex(config: Config): RequestHandler {
  const version = (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  const body = {
    object: 'api',
    name: 'Fundkit API',
    version,
    interface_version: '1',
    network: config.stellar,
    links: { docs: '/docs', openapi: '/openapi.yaml', dashboard: '/dashboard', health: '/healthz' },
  };
  return (_req, res) => void res.json(body);
}
