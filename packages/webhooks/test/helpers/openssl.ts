import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

export const OPENSSL = '/usr/bin/openssl';
/**
 * Whether the vectors are recomputed by openssl. Skipped only on a developer's machine without it:
 * CI (.ci/run installs openssl and sets FUNDKIT_TEST_OPENSSL=required) runs them, and fails without it.
 */
export const hasOpenssl = existsSync(OPENSSL) || Boolean(process.env.CI) || process.env.FUNDKIT_TEST_OPENSSL === 'required';

/** HMAC-SHA256 hex by the openssl binary: an implementation that shares nothing with ours. */
export function opensslHmacHex(secret: string, message: string | Uint8Array): string {
  if (!existsSync(OPENSSL)) throw new Error(`${OPENSSL} is not installed (apt-get install openssl): the webhook vectors are checked with it in CI`);
  const result = spawnSync(OPENSSL, ['dgst', '-sha256', '-hmac', secret, '-r'], { input: message });
  const digest = /^([0-9a-f]{64})\b/.exec(result.stdout.toString());
  if (result.status !== 0 || !digest?.[1]) throw new Error(`openssl failed: ${result.stderr.toString()}`);
  return digest[1];
}
