import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AccountsService } from './resources/accounts/service.js';
import type { Services } from './services.js';
import type { SandboxKeys } from './sandbox-keys.js';

export interface DevAccount {
  accountId: string;
  email: string;
  password: string;
  path: string;
}

/**
 * The sandbox's development account for the dashboard, made on a first start and saved beside the
 * sandbox keys (`<dataDir>/dashboard-account.json`): the reference server has no mailer, so it is
 * created verified. Sandbox only; a saved account the database no longer holds (a wiped database)
 * is made again.
 */
export async function ensureDevAccount(accounts: AccountsService, dataDir: string): Promise<DevAccount> {
  const path = join(dataDir, 'dashboard-account.json');
  if (existsSync(path)) {
    const saved = JSON.parse(readFileSync(path, 'utf8')) as { email: string; password: string };
    // found by its email, not signed in: a sign-in at every start would cost a password hash
    // (scrypt at N=2^17, 128 MiB) while the first requests arrive, and leave a session behind
    const accountId = await accounts.verifiedAccountId(saved.email);
    if (accountId) return { accountId, email: saved.email, password: saved.password, path };
  }
  const email = `developer+${randomBytes(3).toString('hex')}@fundkit.test`;
  const password = randomBytes(12).toString('base64url');
  const { account, verificationToken } = await accounts.signUp(email, password);
  await accounts.verifyEmail(verificationToken);
  writeFileSync(path, JSON.stringify({ email, password }, null, 2) + '\n', { mode: 0o600 });
  return { accountId: account.id, email, password, path };
}

/**
 * The development account owns the sandbox application (the saved keys' one): signing in with the
 * banner's login shows the quickstart's application, keys, intents and webhooks. A database made
 * before this gets it on its next start; an application another account owns stays with it.
 */
export async function adoptSandboxApplication(services: Services, account: DevAccount, keys: SandboxKeys): Promise<void> {
  const app = await services.keys.applicationOf(keys.secretKey);
  if (app) await services.applications.adopt(app.id, account.accountId);
}
