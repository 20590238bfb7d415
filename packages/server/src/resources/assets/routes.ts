import { applicationAuth } from '../../http/context.js';
import { body, type RouteDef } from '../../http/route.js';
import { input } from '../../http/validate.js';
import { sendSharedJson } from '../../http/json.js';
import type { AssetsService } from './service.js';

export function assetRoutes(service: AssetsService): RouteDef[] {
  return [
    { operationId: 'listAssets', handler: async (_req, res) => sendSharedJson(res, await service.list(applicationAuth(res).environment)) },
    { operationId: 'retrieveAsset', handler: async (_req, res) => void res.json(await service.get(applicationAuth(res).environment, String(input(res).path.id))) },
    {
      operationId: 'updatePlatformAsset',
      handler: async (req, res) => void res.json(await service.setEnabled(String(input(res).path.id), body<{ enabled: boolean }>(req).enabled)),
    },
  ];
}
