import { auth } from '../../http/context.js';
import { body, type RouteDef } from '../../http/route.js';
import type { AccountsService } from './service.js';

interface Credentials {
  email: string;
  password: string;
}

function session(res: Parameters<RouteDef['handler']>[1]) {
  const context = auth(res);
  if (context.kind !== 'account') throw new Error('auth route reached without an account session');
  return context;
}

export function accountRoutes(service: AccountsService): RouteDef[] {
  return [
    {
      operationId: 'signUp',
      handler: async (req, res) => {
        const { email, password } = body<Credentials>(req);
        const { account, sandboxVerifyUrl } = await service.signUp(email, password);
        res.status(201).json(sandboxVerifyUrl ? { ...account, sandbox_verify_url: sandboxVerifyUrl } : account);
      },
    },
    { operationId: 'verifyEmail', handler: async (req, res) => void res.json(await service.verifyEmail(body<{ token: string }>(req).token)) },
    {
      operationId: 'signIn',
      handler: async (req, res) => {
        const { email, password } = body<Credentials>(req);
        res.json(await service.signIn(email, password));
      },
    },
    {
      operationId: 'signOut',
      handler: async (_req, res) => {
        await service.signOut(session(res).sessionId);
        res.status(204).end();
      },
    },
    { operationId: 'retrieveAccountSession', handler: async (_req, res) => void res.json(await service.currentSession(session(res).sessionId)) },
  ];
}
