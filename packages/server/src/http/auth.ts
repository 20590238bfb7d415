import type { NextFunction, Request, Response } from 'express';
import type { Operation } from '../spec/operations.js';
import { ApiError } from './api-error.js';
import { locals, type AuthContext } from './context.js';
import { looksLikeJwt, verifyCheckoutToken } from './checkout-token.js';
import { secretsEqual } from '../lib/crypto.js';
import type { ApplicationRecord } from '../domain/application.js';
import type { Environment } from '../domain/environment.js';

/** Security scheme names of the spec, one per credential form (DESIGN §3). */
export type Scheme = 'SecretKey' | 'PublishableKey' | 'CheckoutSession' | 'AccountSession' | 'OperatorKey';

/** The header naming the application an account session acts for, and the one naming its environment. */
export const APPLICATION_HEADER = 'Fundkit-Application';
export const ENVIRONMENT_HEADER = 'Fundkit-Environment';

/** The API keys as authentication asks them (resources/keys/service.ts answers; http/ knows no resources/). */
export interface KeyAuthenticator {
  authenticate(plaintext: string): Promise<{
    key: { id: string; type: 'secret' | 'publishable'; environment: Environment; revoked_at: string | null };
    application: ApplicationRecord;
  } | undefined>;
  markExposed(keyId: string): Promise<void>;
}

/** The dashboard's sessions as authentication asks them (resources/accounts/service.ts answers). */
export interface SessionAuthenticator {
  authenticate(token: string): Promise<{ ok: true; session: { id: string; account_id: string } } | { ok: false; code: 'UNAUTHORIZED' | 'SESSION_EXPIRED' }>;
}

export interface AuthDeps {
  keys: KeyAuthenticator;
  accounts: SessionAuthenticator;
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

/** Says where keys come from without saying anything about this one (no lookup result leaks). */
const INVALID_KEY = 'invalid API key: use a key as it was shown when it was made (the dashboard\'s Applications page makes keys; '
  + 'a local `pnpm start` prints its sandbox keys and saves them in .fundkit/sandbox-keys.json)';

/** Tells credentials apart by their form. */
export function schemeOf(token: string, operatorKey: string | null): Scheme | null {
  // constant time: a comparison that stops at the first differing byte tells a guesser how far it got
  if (operatorKey && secretsEqual(token, operatorKey)) return 'OperatorKey';
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

/**
 * Application operations declare the Fundkit-Application header: there an account session acts
 * for the application it names, elsewhere (auth, applications) it acts as the account.
 */
function takesApplicationHeader(op: Operation): boolean {
  return op.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === APPLICATION_HEADER.toLowerCase());
}

function acceptedList(op: Operation): string {
  const describe = (s: string) => (s === 'AccountSession' && takesApplicationHeader(op) ? `an account session with a ${APPLICATION_HEADER} header` : DESCRIPTIONS[s as Scheme] ?? s);
  return [...op.credentials].map(describe).join(' or ');
}

function activeApplication(app: ApplicationRecord | undefined): ApplicationRecord {
  if (!app) throw new ApiError('UNAUTHORIZED', 'the application of this credential no longer exists');
  if (app.status !== 'active') throw new ApiError('APPLICATION_INACTIVE', 'this application is deactivated; contact the platform operator');
  return app;
}

async function authenticateKey(req: Request, token: string, deps: AuthDeps): Promise<AuthContext> {
  const found = await deps.keys.authenticate(token);
  if (!found || found.key.revoked_at) throw new ApiError('UNAUTHORIZED', found ? 'this API key has been revoked' : INVALID_KEY);
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

async function authenticateAccount(token: string, deps: AuthDeps): Promise<Extract<AuthContext, { kind: 'account' }>> {
  const result = await deps.accounts.authenticate(token);
  if (!result.ok) {
    throw new ApiError(result.code, result.code === 'SESSION_EXPIRED' ? 'this session has expired; sign in again' : 'invalid or signed-out session');
  }
  return { kind: 'account', accountId: result.session.account_id, sessionId: result.session.id };
}

/**
 * An account session acting for one of its account's applications (Fundkit-Application): it
 * answers as a key of that application in the environment of Fundkit-Environment (default test).
 * Another account's application and an unknown id get the same 403, so a session cannot probe
 * which ids exist.
 */
async function authenticateDashboard(req: Request, token: string, deps: AuthDeps): Promise<AuthContext> {
  const session = await authenticateAccount(token, deps);
  const appId = req.get(APPLICATION_HEADER)?.trim();
  if (!appId) throw new ApiError('UNAUTHORIZED', `an account session acts for one application: name it in the ${APPLICATION_HEADER} header (app_…)`);
  const env = req.get(ENVIRONMENT_HEADER)?.trim() ?? 'test';
  if (env !== 'test' && env !== 'live') throw new ApiError('VALIDATION_ERROR', `${ENVIRONMENT_HEADER} must be "test" or "live"`);
  const found = /^app_[A-Za-z0-9_]{1,60}$/.test(appId) ? await deps.findApplication(appId) : undefined;
  if (!found || found.account_id !== session.accountId) throw new ApiError('FORBIDDEN', `${APPLICATION_HEADER} does not name an application of this account`);
  const application = activeApplication(found);
  return { kind: 'dashboard', application, environment: env, keyId: session.sessionId, accountId: session.accountId, sessionId: session.sessionId };
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
    else if (scheme === 'AccountSession' && takesApplicationHeader(op)) locals(res).auth = await authenticateDashboard(req, token, deps);
    else if (scheme === 'AccountSession') locals(res).auth = await authenticateAccount(token, deps);
    else locals(res).auth = { kind: 'operator' };
    next();
  };
}
