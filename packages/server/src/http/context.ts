import type { Request, Response } from 'express';
import type { Operation } from '../spec/operations.js';
import type { ApplicationRecord } from '../domain/application.js';
import type { Environment } from '../domain/environment.js';

/** Who is calling. Set by the auth middleware; routes read it through `auth(res)`. */
export type AuthContext =
  | { kind: 'secret' | 'publishable'; application: ApplicationRecord; environment: Environment; keyId: string }
  | {
      kind: 'checkout';
      application: ApplicationRecord;
      environment: Environment;
      sessionId: string;
      fundingIntentId: string;
      /** rate limiting bucket and request log key */
      keyId: string;
    }
  | { kind: 'account'; accountId: string; sessionId: string }
  /** an account session acting for one of its applications (Fundkit-Application); keyId = the session id */
  | { kind: 'dashboard'; application: ApplicationRecord; environment: Environment; keyId: string; accountId: string; sessionId: string }
  | { kind: 'operator' }
  | { kind: 'public' };

/** Per-request state kept on res.locals, typed. */
export interface RequestLocals {
  requestId: string;
  startedAt: number;
  operation?: Operation;
  auth?: AuthContext;
  idempotencyKey?: string;
  /** the answer is an error the same request may retry (5xx, 429, "not yet"): never replayed */
  retryableAnswer?: boolean;
}

export function locals(res: Response): RequestLocals {
  return res.locals as RequestLocals;
}

/** The caller; routes only run after auth, so its absence is a wiring bug. */
export function auth(res: Response): AuthContext {
  const context = locals(res).auth;
  if (!context) throw new Error('auth context missing: route mounted without auth middleware');
  return context;
}

/** The caller as an application (secret, publishable or checkout credential). */
export function applicationAuth(res: Response): Extract<AuthContext, { application: ApplicationRecord }> {
  const context = auth(res);
  if (!('application' in context)) throw new Error(`route needs an application credential, got ${context.kind}`);
  return context;
}

export type { Request, Response };
