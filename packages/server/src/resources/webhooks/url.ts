import { ApiError } from '../../http/api-error.js';
import type { Environment } from '../../domain/environment.js';
import type { TargetPolicy } from './targets.js';

function invalid(message: string, status?: number): ApiError {
  return new ApiError('VALIDATION_ERROR', `url ${message}`, { details: [{ path: 'body.url', message }], ...(status ? { status } : {}) });
}

/**
 * http(s) only, no credentials in the URL, and (outside the sandbox's test environment) a host
 * that is not a refused address. Names are checked again when a delivery connects (targets.ts).
 * Returns the URL as given.
 */
export function checkWebhookUrl(raw: string, environment: Environment, policy: TargetPolicy): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('is not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('must use http or https');
  if (url.username || url.password) throw invalid('must not contain credentials');
  const refusal = policy.isOpen(environment) ? null : policy.hostRefusal(url.hostname);
  // 422, not 400 (DESIGN §10): the URL is well formed; its target is what the rule refuses
  if (refusal) throw invalid(`must not point at a loopback, private or special-purpose address outside the sandbox: ${refusal}`, 422);
  return raw;
}
