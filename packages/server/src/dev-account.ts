import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AccountsService } from './resources/accounts/service.js';

export interface DevAccount {
  email: string;
  password: string;
  path: string;
}

/**
 * The sandbox's development account for the dashboard, made on a first start and saved beside the
 * sandbox keys (`<dataDir>/dashboard-account.json`): the reference server has no mailer, so it is
 * created verified. Sandbox only; a saved account whose password no longer signs in (a wiped
 * database) is made again.
 */
export async function ensureDevAccount(accounts: AccountsService, dataDir: string): Promise<DevAccount> {
  const path = join(dataDir, 'dashboard-account.json');
  if (existsSync(path)) {
    const saved = JSON.parse(readFileSync(path, 'utf8')) as { email: string; password: string };
    const works = await accounts.signIn(saved.email, saved.password).then(() => true, () => false);
    if (works) return { ...saved, path };
  }
  const email = `developer+${randomBytes(3).toString('hex')}@fundkit.test`;
  const password = randomBytes(12).toString('base64url');
  const { verificationToken } = await accounts.signUp(email, password);
  await accounts.verifyEmail(verificationToken);
  writeFileSync(path, JSON.stringify({ email, password }, null, 2) + '\n', { mode: 0o600 });
  return { email, password, path };
}
