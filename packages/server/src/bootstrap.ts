import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { Keypair } from '@stellar/stellar-sdk';
import { ConfigError } from './config.js';
import type { Services } from './services.js';
import type { Sql } from './db/sql.js';

/** FUNDKIT_BOOTSTRAP: applications and their keys, applied idempotently at every start. */
export interface BootstrapFile {
  applications: {
    name: string;
    secret_keys?: string[];
    publishable_keys?: string[];
    settlement_address?: string | null;
  }[];
}

const KEY = /^(sk|pk)_(test|live)_[A-Za-z0-9]{16,128}$/;

function fail(message: string): never {
  throw new ConfigError(`FUNDKIT_BOOTSTRAP: ${message}`);
}

/** Checks the shape by hand: a bad bootstrap file must stop start-up with one clear line. */
export function parseBootstrap(value: unknown): BootstrapFile {
  const file = value as BootstrapFile;
  if (!file || typeof file !== 'object' || !Array.isArray(file.applications)) fail('expected {"applications": [...]}');
  file.applications.forEach((app, i) => {
    if (!app || typeof app.name !== 'string' || app.name.length === 0) fail(`applications[${i}].name must be a non-empty string`);
    for (const [field, prefix] of [['secret_keys', 'sk'], ['publishable_keys', 'pk']] as const) {
      const keys = app[field] ?? [];
      if (!Array.isArray(keys)) fail(`applications[${i}].${field} must be an array`);
      keys.forEach((key, k) => {
        if (typeof key !== 'string' || !KEY.test(key) || !key.startsWith(`${prefix}_`)) {
          fail(`applications[${i}].${field}[${k}] must look like ${prefix}_test_… or ${prefix}_live_… (16+ letters or digits)`);
        }
      });
    }
  });
  return file;
}

export function readBootstrapFile(path: string): BootstrapFile {
  if (!existsSync(path)) fail(`file ${path} does not exist`);
  try {
    return parseBootstrap(JSON.parse(readFileSync(path, 'utf8')));
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    return fail(`file ${path} is not valid JSON`);
  }
}

export async function applyBootstrap(sql: Sql, services: Services, file: BootstrapFile): Promise<void> {
  await sql.transaction(async () => {
    for (const entry of file.applications) {
      const app = await services.applications.ensureUnowned(entry.name, entry.settlement_address ?? null);
      for (const key of [...(entry.secret_keys ?? []), ...(entry.publishable_keys ?? [])]) await services.keys.importKey(app.id, key);
    }
  });
}

/**
 * A later start: the saved keys' application, found by its key (the development account may own it
 * by now, so not by name). A wiped database gets it back, unowned. An application saved by an older
 * version has no settlement address, and an intent needs a destination: it gets a fresh sandbox
 * account (the sandbox ledger creates it when it is first paid).
 */
async function reuseSandboxApplication(sql: Sql, services: Services, file: BootstrapFile): Promise<void> {
  const entry = file.applications[0];
  const secret = entry?.secret_keys?.[0];
  const app = secret ? await services.keys.applicationOf(secret) : undefined;
  if (!app) return applyBootstrap(sql, services, file);
  if (!app.settlement_address) await services.applications.update('operator', app.id, { settlement_address: Keypair.random().publicKey() });
}

/**
 * First start without a bootstrap file: a "Sandbox application" with a test secret and
 * publishable key, printed once and saved under the data directory for later starts.
 */
export async function ensureSandboxApplication(sql: Sql, services: Services, dataDir: string, logger: Logger): Promise<void> {
  const saved = join(dataDir, 'sandbox-keys.json');
  if (existsSync(saved)) return reuseSandboxApplication(sql, services, JSON.parse(readFileSync(saved, 'utf8')) as BootstrapFile);
  const settlementAddress = Keypair.random().publicKey();
  const created = await sql.transaction(async () => {
    // a settlement address from the start: a create right after "listening" needs a destination
    const app = await services.applications.ensureUnowned('Sandbox application', settlementAddress);
    return { app, secret: (await services.keys.create(app.id, 'test', 'secret')).plaintext, publishable: (await services.keys.create(app.id, 'test', 'publishable')).plaintext };
  });
  mkdirSync(dataDir, { recursive: true });
  const file: BootstrapFile = { applications: [{ name: 'Sandbox application', settlement_address: settlementAddress, secret_keys: [created.secret], publishable_keys: [created.publishable] }] };
  writeFileSync(saved, JSON.stringify(file, null, 2), { mode: 0o600 });
  // the secret key goes to the file (0600) and the banner, never into the log, which is shipped and kept
  logger.info({ application_id: created.app.id, publishable_key: created.publishable, saved_to: saved }, 'created the sandbox application (its keys are in saved_to)');
}
