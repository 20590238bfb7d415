import type { NextFunction, Request, Response } from 'express';
import type { Operation } from '../spec/operations.js';
import type { AccountsService } from '../resources/accounts/service.js';
import type { KeysService } from '../resources/keys/service.js';
import { ApiError } from './api-error.js';
import { locals, type AuthContext } from './context.js';
import { looksLikeJwt, verifyCheckoutToken } from './checkout-token.js';
import type { ApplicationRecord } from './context.js';

/** Security scheme names of the spec, one per credential form (DESIGN §3). */
export type Scheme = 'SecretKey' | 'PublishableKey' | 'CheckoutSession' | 'AccountSession' | 'OperatorKey';

export interface AuthDeps {
  keys: KeysService;
  accounts: AccountsService;
  operatorKey: string | null;
  checkoutKey: Buffer;
  findApplication: (id: string) => Promise<ApplicationRecord | undefined>;
}

const DESCRIPTIONS: Record<Scheme, string> = {
  SecretKey: 'a secret key (sk_…)',
  PublishableKey: 'a publishable key (pk_…)',
  CheckoutSession: 'a checkout session token',
  AccountSession: 'an account session (acs_…)',
  OperatorKey: 'the operator key',
};

/** Tells credentials apart by their form. */
export function schemeOf(token: string, operatorKey: string | null): Scheme | null {
  if (operatorKey && token === operatorKey) return 'OperatorKey';
  if (/^sk_(test|live)_/.test(token)) return 'SecretKey';
  if (/^pk_(test|live)_/.test(token)) return 'PublishableKey';
  if (token.startsWith('acs_')) return 'AccountSession';
  if (looksLikeJwt(token)) return 'CheckoutSession';
  return null;
}

function bearerToken(req: Request): string | null {
  const header = req.get('authorization');
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new ApiError('UNAUTHORIZED', 'Authorization must be "Bearer <credential>"');
  return match[1]!;
}

function acceptedList(op: Operation): string {
  return [...op.credentials].map((s) => DESCRIPTIONS[s as Scheme] ?? s).join(' or ');
}

function activeApplication(app: ApplicationRecord | undefined): ApplicationRecord {
  if (!app) throw new ApiError('UNAUTHORIZED', 'the application of this credential no longer exists');
  if (app.status !== 'active') throw new ApiError('APPLICATION_INACTIVE', 'this application is deactivated; contact the platform operator');
  return app;
}

async function authenticateKey(req: Request, token: string, deps: AuthDeps): Promise<AuthContext> {
  const found = await deps.keys.authenticate(token);
  if (!found || found.key.revoked_at) throw new ApiError('UNAUTHORIZED', found ? 'this API key has been revoked' : 'invalid API key');
  if (found.key.type === 'secret' && req.get('origin')) {
    // A browser sent it: the key is exposed (INTERFACE: it must be rotated), so tell the owner.
    await deps.keys.markExposed(found.key.id);
    throw new ApiError('FORBIDDEN', 'secret keys are for servers; rotate this key');
  }
  const application = activeApplication(found.application);
  return { kind: found.key.type, application, environment: found.key.environment, keyId: found.key.id };
}

async function authenticateCheckout(token: string, deps: AuthDeps): Promise<AuthContext> {
  const result = await verifyCheckoutToken(deps.checkoutKey, token);
  if (!result.ok) {
    throw result.reason === 'expired'
      ? new ApiError('SESSION_EXPIRED', 'this checkout session has expired; create a new one')
      : new ApiError('INVALID_TOKEN', 'invalid checkout session token');
  }
  const { claims } = result;
  const application = activeApplication(await deps.findApplication(claims.applicationId));
  return { kind: 'checkout', application, environment: claims.environment, sessionId: claims.sessionId, fundingIntentId: claims.fundingIntentId, keyId: claims.sessionId };
}

async function authenticateAccount(token: string, deps: AuthDeps): Promise<AuthContext> {
  const result = await deps.accounts.authenticate(token);
  if (!result.ok) {
    throw new ApiError(result.code, result.code === 'SESSION_EXPIRED' ? 'this session has expired; sign in again' : 'invalid or signed-out session');
  }
  return { kind: 'account', accountId: result.session.account_id, sessionId: result.session.id };
}

/** Authenticates the bearer credential against the operation's `security` list. */
export function authenticate(op: Operation, deps: AuthDeps) {
  // asynchronous: keys, sessions and applications are read through the executor (issue 16)
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (op.credentials.size === 0) {
      locals(res).auth = { kind: 'public' };
      return next();
    }
    const token = bearerToken(req);
    if (!token) throw new ApiError('UNAUTHORIZED', `this operation requires ${acceptedList(op)} as a Bearer credential`);
    const scheme = schemeOf(token, deps.operatorKey);
    if (!scheme) throw new ApiError('UNAUTHORIZED', 'unrecognised credential');
    if (!op.credentials.has(scheme)) {
      throw new ApiError('UNAUTHORIZED', `${DESCRIPTIONS[scheme]} is not accepted here; use ${acceptedList(op)}`);
    }
    if (scheme === 'SecretKey' || scheme === 'PublishableKey') locals(res).auth = await authenticateKey(req, token, deps);
    else if (scheme === 'CheckoutSession') {
      return authenticateCheckout(token, deps).then((context) => {
        locals(res).auth = context;
        next();
      });
    }
    else if (scheme === 'AccountSession') locals(res).auth = await authenticateAccount(token, deps);
    else locals(res).auth = { kind: 'operator' };
    next();
  };
}
