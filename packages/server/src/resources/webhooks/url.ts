import { isIP } from 'node:net';
import { ApiError } from '../../http/api-error.js';
import type { Environment } from '../../http/context.js';

function invalid(message: string): ApiError {
  return new ApiError('VALIDATION_ERROR', `url ${message}`, { details: [{ path: 'body.url', message }] });
}

function isPrivateIPv4(host: string): boolean {
  const [a, b] = host.split('.').map(Number) as [number, number];
  return a === 127 || a === 10 || a === 0 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}

/**
 * Loopback and private hosts. Only the sandbox may deliver there (a developer's laptop); in
 * production such a URL would let an API key make the server call into its own network.
 */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return isPrivateIPv4(host);
  if (isIP(host) === 6) return host === '::1' || host === '::' || /^f[cd]/.test(host) || host.startsWith('fe80:') || host.startsWith('::ffff:');
  return false;
}

/** http(s) only, no credentials in the URL, local hosts only with test keys. Returns the URL as given. */
export function checkWebhookUrl(raw: string, environment: Environment): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('is not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('must use http or https');
  if (url.username || url.password) throw invalid('must not contain credentials');
  if (environment === 'live' && isLocalHost(url.hostname)) {
    throw invalid('points at localhost or a private address, which only test keys (the sandbox) may use');
  }
  return raw;
}
