import { clientKey } from '../../http/client-key.js';
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

/** The client for the auth limits: its address (behind a proxy, the one FUNDKIT_TRUST_PROXY lets Express read), an IPv6 one by its /64. */
function clientOf(req: Parameters<RouteDef['handler']>[0]): string {
  return clientKey(req);
}

export function accountRoutes(service: AccountsService): RouteDef[] {
  return [
    {
      operationId: 'signUp',
      handler: async (req, res) => {
        const { email, password } = body<Credentials>(req);
        const { account, sandboxVerifyUrl } = await service.signUp(email, password, clientOf(req));
        res.status(201).json(sandboxVerifyUrl ? { ...account, sandbox_verify_url: sandboxVerifyUrl } : account);
      },
    },
    { operationId: 'verifyEmail', handler: async (req, res) => void res.json(await service.verifyEmail(body<{ token: string }>(req).token, clientOf(req))) },
    {
      operationId: 'signIn',
      handler: async (req, res) => {
        const { email, password } = body<Credentials>(req);
        res.json(await service.signIn(email, password, clientOf(req)));
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
