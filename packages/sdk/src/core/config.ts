import { environmentOfKey, readEnv, type Environment } from '../internal/env.js';
import { FundkitError } from './errors.js';
import type { ClientOptions } from './options.js';
import type { FetchLike, Logger } from './retry.js';

export const BASE_URLS: Record<Environment, string> = {
  production: 'https://api.fundkit.dev',
  sandbox: 'https://sandbox.api.fundkit.dev',
};

export interface ResolvedConfig {
  apiKey: string | undefined;
  baseUrl: string;
  environment: Environment;
  maxRetries: number;
  timeoutMs: number;
  totalTimeoutMs: number | undefined;
  fetch: FetchLike;
  logger: Logger | undefined;
  defaultHeaders: Record<string, string>;
}

function configError(message: string): FundkitError {
  return new FundkitError(message, { code: 'INVALID_CONFIGURATION', retryable: false });
}

/** The environment a known default base URL stands for; custom URLs (the reference server) say nothing. */
function environmentOfUrl(baseUrl: string | undefined): Environment | undefined {
  const url = baseUrl?.replace(/\/+$/, '');
  return (Object.keys(BASE_URLS) as Environment[]).find((env) => BASE_URLS[env] === url);
}

/**
 * Refuses a live key against the sandbox and a test key against production here, before any
 * request: the server would fail the request anyway, but a misconfigured deploy should fail at
 * start-up with a message that names the problem.
 */
function resolveEnvironment(apiKey: string | undefined, options: ClientOptions): Environment {
  const fromKey = environmentOfKey(apiKey);
  const declared = options.environment ?? environmentOfUrl(options.baseUrl);
  if (options.environment && !(options.environment in BASE_URLS)) throw configError(`Unknown environment "${options.environment}": use "sandbox" or "production"`);
  if (fromKey && declared && fromKey !== declared) {
    const kind = fromKey === 'production' ? 'a live key' : 'a test key';
    throw configError(`Fundkit: ${kind} cannot be used against ${declared}. Use a ${declared === 'production' ? 'live (sk_live_)' : 'test (sk_test_)'} key, or set environment: '${fromKey}'.`);
  }
  return declared ?? fromKey ?? 'production';
}

function positive(name: string, value: number | undefined, fallback: number): number {
  const resolved = value ?? fallback;
  if (!Number.isFinite(resolved) || resolved < 0) throw configError(`Fundkit: ${name} must be a non-negative number`);
  return resolved;
}

export function resolveConfig(options: ClientOptions): ResolvedConfig {
  const apiKey = options.apiKey ?? readEnv('FUNDKIT_API_KEY');
  const environment = resolveEnvironment(apiKey, options);
  const fetch = options.fetch ?? (globalThis.fetch?.bind(globalThis) as FetchLike | undefined);
  if (!fetch) throw configError('Fundkit: no fetch available; pass the `fetch` option');
  return {
    apiKey,
    environment,
    baseUrl: (options.baseUrl ?? BASE_URLS[environment]).replace(/\/+$/, ''),
    maxRetries: Math.floor(positive('maxRetries', options.maxRetries, 2)),
    timeoutMs: positive('timeoutMs', options.timeoutMs, 60_000),
    totalTimeoutMs: options.totalTimeoutMs === undefined ? undefined : positive('totalTimeoutMs', options.totalTimeoutMs, 0),
    fetch,
    logger: options.logger,
    defaultHeaders: {
      ...options.defaultHeaders,
      ...(options.application ? { 'Fundkit-Application': options.application } : {}),
      ...(options.applicationEnvironment ? { 'Fundkit-Environment': options.applicationEnvironment } : {}),
    },
  };
}
