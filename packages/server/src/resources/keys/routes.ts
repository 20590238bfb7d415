/**
 * An application's API keys over HTTP (dashboard): made, listed and revoked under the application,
 * whose owner check they reuse. Keys sit above applications/: a key's repo reads its application.
 */
import type { Response } from 'express';
import type { Environment } from '../../domain/environment.js';
import { pageRequest } from '../../http/pagination.js';
import { body, type RouteDef } from '../../http/route.js';
import { input } from '../../http/validate.js';
import { owner } from '../applications/routes.js';
import type { ApplicationsService } from '../applications/service.js';
import type { KeyType } from './repo.js';
import { presentKey, type KeysService } from './service.js';

/** The application the keys are under (the path's `id`). */
const applicationId = (res: Response) => String(input(res).path.id);

export function keyRoutes(applications: ApplicationsService, keys: KeysService): RouteDef[] {
  return [
    {
      operationId: 'createApiKey',
      handler: async (req, res) => {
        const app = await applications.get(owner(res), applicationId(res));
        const { type, environment } = body<{ type: KeyType; environment: Environment }>(req);
        const created = await keys.create(app.id, environment, type);
        res.status(201).json(presentKey(created.record, created.plaintext));
      },
    },
    {
      operationId: 'listApiKeys',
      handler: async (_req, res) => {
        const app = await applications.get(owner(res), applicationId(res));
        res.json(await keys.list(app.id, pageRequest(input(res).query)));
      },
    },
    {
      operationId: 'revokeApiKey',
      handler: async (_req, res) => {
        const app = await applications.get(owner(res), applicationId(res));
        res.json(await keys.revoke(app.id, String(input(res).path.keyId)));
      },
    },
  ];
}
