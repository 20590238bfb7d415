import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { ConfigError, type Config } from './config.js';

/**
 * FUNDKIT_MASTER_KEY, or in development a key generated once and kept under the data directory
 * (an in-memory database gets a throwaway key). Production (pubnet) must configure one.
 */
export function resolveMasterKey(config: Config, logger: Logger): Buffer {
  if (config.masterKey) return config.masterKey;
  if (config.stellar === 'pubnet') {
    throw new ConfigError('FUNDKIT_MASTER_KEY is required when FUNDKIT_STELLAR=pubnet: make one with `openssl rand -hex 32`, '
      + 'set it (export FUNDKIT_MASTER_KEY=…) and keep it safe: it encrypts the treasury and deposit keys');
  }
  if (config.dbPath === ':memory:') return randomBytes(32);
  const path = join(config.dataDir, 'master.key');
  if (existsSync(path)) {
    const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'hex');
    if (key.length !== 32) throw new ConfigError(`FUNDKIT_MASTER_KEY is unset and ${path} does not hold 64 hex characters`);
    return key;
  }
  const key = randomBytes(32);
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(path, key.toString('hex'), { mode: 0o600 });
  logger.warn({ path }, 'FUNDKIT_MASTER_KEY is unset: generated a development master key');
  return key;
}
