import { LOGO_HEADERS } from './logo.js';
import type { Response } from 'express';
import { ApiError } from '../../http/api-error.js';
import { auth } from '../../http/context.js';
import { pageRequest } from '../../http/pagination.js';
import { body, type RouteDef } from '../../http/route.js';
import { input } from '../../http/validate.js';
import { presentApplication, type ApplicationInput, type ApplicationsService, type Owner } from './service.js';

/** Who asks: the operator, or an account's session (its applications only). Key routes ask the same. */
export function owner(res: Response): Owner {
  const context = auth(res);
  if (context.kind === 'operator') return 'operator';
  if (context.kind === 'account') return { accountId: context.accountId };
  throw new Error(`applications route reached with a ${context.kind} credential`);
}

function accountId(res: Response): string {
  const context = auth(res);
  if (context.kind !== 'account') throw new Error('createApplication needs an account session');
  return context.accountId;
}

const id = (res: Response) => String(input(res).path.id);

/** Dashboard operations (account session); the keys under an application have their routes in keys/routes.ts. */
export function applicationRoutes(service: ApplicationsService): RouteDef[] {
  return [
    {
      operationId: 'createApplication',
      handler: async (req, res) => {
        const app = await service.create(accountId(res), body<ApplicationInput & { name: string }>(req));
        res.status(201).json(presentApplication(app));
      },
    },
    { operationId: 'listApplications', handler: async (_req, res) => void res.json(await service.list(owner(res), pageRequest(input(res).query))) },
    { operationId: 'retrieveApplication', handler: async (_req, res) => void res.json(presentApplication(await service.get(owner(res), id(res)))) },
    {
      operationId: 'updateApplication',
      handler: async (req, res) => void res.json(presentApplication(await service.update(owner(res), id(res), body<ApplicationInput>(req)))),
    },
    {
      operationId: 'uploadApplicationLogo',
      handler: async (req, res) => {
        if (!Buffer.isBuffer(req.body) || req.body.length === 0) throw new ApiError('LOGO_FORMAT_UNSUPPORTED', 'send the image bytes as the request body');
        res.json(presentApplication(await service.uploadLogo(owner(res), id(res), req.body)));
      },
    },
    {
      operationId: 'retrieveApplicationLogo',
      handler: async (_req, res) => {
        const logo = await service.logo(id(res));
        res.set({ ...LOGO_HEADERS, 'Content-Disposition': `inline; filename="${logo.file}"` });
        res.type(logo.contentType).sendFile(logo.path, { dotfiles: 'allow' });
      },
    },
    // platform operator
    {
      operationId: 'listPlatformApplications',
      handler: async (_req, res) => {
        const { query } = input(res);
        const status = query.status === 'ACTIVE' ? 'active' : query.status === 'INACTIVE' ? 'inactive' : undefined;
        res.json(await service.list('operator', pageRequest(query), status));
      },
    },
    { operationId: 'deactivateApplication', handler: async (_req, res) => void res.json(presentApplication(await service.setStatus(id(res), 'inactive'))) },
    { operationId: 'reactivateApplication', handler: async (_req, res) => void res.json(presentApplication(await service.setStatus(id(res), 'active'))) },
  ];
}
