import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

export const OPENSSL = '/usr/bin/openssl';
export const hasOpenssl = existsSync(OPENSSL);

/** HMAC-SHA256 hex by the openssl binary: an implementation that shares nothing with ours. */
export function opensslHmacHex(secret: string, message: string | Uint8Array): string {
  const result = spawnSync(OPENSSL, ['dgst', '-sha256', '-hmac', secret, '-r'], { input: message });
  const digest = /^([0-9a-f]{64})\b/.exec(result.stdout.toString());
  if (result.status !== 0 || !digest?.[1]) throw new Error(`openssl failed: ${result.stderr.toString()}`);
  return digest[1];
}
