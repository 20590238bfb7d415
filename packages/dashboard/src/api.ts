import type { ServerNetwork } from './shell/network-note.js';

/**
 * The dashboard's only fetch caller, as api.ts is in the checkout: every page goes through it, so
 * the session header and the error envelope are handled in one place.
 */
export interface ApiError {
  status: number;
  code: string;
  message: string;
  requestId: string | null;
}

export interface Page<T> {
  object: 'list';
  data: T[];
  next_cursor: string | null;
}

export interface Application {
  id: string;
  name: string;
  settlement_address: string | null;
  /** what an intent created without `deposit_type` gets */
  default_deposit_type: 'account' | 'muxed';
  logo_url: string | null;
  created_at: string;
}

export interface ApiKey {
  id: string;
  type: 'secret' | 'publishable';
  environment: 'test' | 'live';
  /** e.g. `sk_test_…a1b2`: a listing never holds the key itself */
  masked: string;
  status: 'active' | 'revoked';
  exposed_at: string | null;
  created_at: string;
  revoked_at: string | null;
}

export type Fetch = typeof fetch;

export class Api {
  constructor(
    private readonly baseUrl: string,
    public token: string | null = null,
    private readonly fetcher: Fetch = (...args) => fetch(...args),
  ) {}

  async call<T>(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<T> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    // a Blob (a logo file) goes as it is, with its own type; everything else as JSON
    const raw = typeof Blob !== 'undefined' && body instanceof Blob;
    if (body !== undefined) headers['content-type'] = raw ? body.type : 'application/json';
    const payload = body === undefined ? undefined : raw ? body : JSON.stringify(body);
    const res = await this.fetcher(this.baseUrl + path, { method, headers, body: payload });
    const text = await res.text();
    const json = text ? (JSON.parse(text) as Record<string, any>) : {};
    if (!res.ok) {
      const error = json.error ?? {};
      throw { status: res.status, code: error.code ?? 'INTERNAL_ERROR', message: error.message ?? `HTTP ${res.status}`, requestId: error.requestId ?? res.headers.get('x-request-id') } satisfies ApiError;
    }
    return json as T;
  }

  /** GET /v1: public; which network the server is on (the header says it) */
  about() {
    return this.call<{ name: string; version: string; network: ServerNetwork }>('GET', '/v1');
  }

  signIn(email: string, password: string) {
    return this.call<{ token: string; expires_at: string }>('POST', '/v1/auth/sign-in', { email, password });
  }
  signUp(email: string, password: string) {
    return this.call<{ id: string; email: string; email_verified: boolean; sandbox_verify_url?: string }>('POST', '/v1/auth/sign-up', { email, password });
  }
  verifyEmail(token: string) {
    return this.call<{ email_verified: boolean }>('POST', '/v1/auth/verify-email', { token });
  }
  signOut() {
    return this.call<void>('POST', '/v1/auth/sign-out', {});
  }
  listApplications() {
    return this.call<Page<Application>>('GET', '/v1/applications?limit=100');
  }
  createApplication(name: string, settlementAddress: string) {
    return this.call<Application>('POST', '/v1/applications', settlementAddress ? { name, settlement_address: settlementAddress } : { name });
  }
  updateApplication(appId: string, changes: { name?: string; settlement_address?: string | null; default_deposit_type?: 'account' | 'muxed' }) {
    return this.call<Application>('PATCH', `/v1/applications/${encodeURIComponent(appId)}`, changes);
  }
  uploadLogo(appId: string, file: Blob) {
    return this.call<Application>('PUT', `/v1/applications/${encodeURIComponent(appId)}/logo`, file);
  }
  listKeys(appId: string) {
    return this.call<Page<ApiKey>>('GET', `/v1/applications/${encodeURIComponent(appId)}/keys?limit=100`);
  }
  createKey(appId: string, type: ApiKey['type'], environment: ApiKey['environment']) {
    return this.call<ApiKey & { key: string }>('POST', `/v1/applications/${encodeURIComponent(appId)}/keys`, { type, environment });
  }
  revokeKey(appId: string, keyId: string) {
    return this.call<ApiKey>('POST', `/v1/applications/${encodeURIComponent(appId)}/keys/${encodeURIComponent(keyId)}/revoke`, {});
  }
}

export function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && 'code' in value && 'status' in value;
}
