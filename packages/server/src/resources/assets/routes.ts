import { applicationAuth } from '../../http/context.js';
import { body, type RouteDef } from '../../http/route.js';
import { input } from '../../http/validate.js';
import { sendSharedJson } from '../../http/json.js';
import type { AssetsService } from './service.js';

export function assetRoutes(service: AssetsService): RouteDef[] {
  return [
    { operationId: 'listAssets', handler: (_req, res) => sendSharedJson(res, service.list(applicationAuth(res).environment)) },
    { operationId: 'retrieveAsset', handler: (_req, res) => void res.json(service.get(applicationAuth(res).environment, String(input(res).path.id))) },
    {
      operationId: 'updatePlatformAsset',
      handler: (req, res) => void res.json(service.setEnabled(String(input(res).path.id), body<{ enabled: boolean }>(req).enabled)),
    },
  ];
}
