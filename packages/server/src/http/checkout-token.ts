import { SignJWT, errors, jwtVerify } from 'jose';
import type { Environment } from '../domain/environment.js';

/** Claims binding a checkout session token to one session, intent, application and environment. */
export interface CheckoutClaims {
  sessionId: string;
  fundingIntentId: string;
  applicationId: string;
  environment: Environment;
}

const ISSUER = 'fundkit';
const AUDIENCE = 'checkout';

export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}

/** HS256 under a key derived from the master key. expiresAt: unix seconds. */
export async function signCheckoutToken(key: Buffer, claims: CheckoutClaims, expiresAt: number): Promise<string> {
  return new SignJWT({ fi: claims.fundingIntentId, app: claims.applicationId, env: claims.environment })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sessionId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(expiresAt)
    .sign(key);
}

export type CheckoutVerification = { ok: true; claims: CheckoutClaims } | { ok: false; reason: 'expired' | 'invalid' };

export async function verifyCheckoutToken(key: Buffer, token: string): Promise<CheckoutVerification> {
  try {
    const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
    const env = payload.env;
    if (typeof payload.sub !== 'string' || typeof payload.fi !== 'string' || typeof payload.app !== 'string' || (env !== 'test' && env !== 'live')) {
      return { ok: false, reason: 'invalid' };
    }
    return { ok: true, claims: { sessionId: payload.sub, fundingIntentId: payload.fi, applicationId: payload.app, environment: env } };
  } catch (error) {
    return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' };
  }
}
