/**
 * Direct ledger writes that no transaction could make: the faucet and genesis. Issuers are never
 * signed for in the sandbox, so issued assets are minted straight into trustlines.
 */
import { MAX_STROOPS } from './shared/money.js';
import { newAccount } from './accounts.js';
import type { Clock } from './apply-tx.js';
import type { SandboxStore } from './store.js';

export class FaucetError extends Error {}

export async function ensureAccount(store: SandboxStore, clock: Clock, address: string, balance = 0n) {
  const existing = await store.getAccount(address);
  if (existing) return existing;
  const account = newAccount(address, balance, clock.ledger, clock.closeTime);
  await store.putAccount(account);
  return account;
}

/** Adds a trustline paying its reserve with faucet XLM, so funding never trips the reserve. */
export async function ensureTrustline(store: SandboxStore, clock: Clock, address: string, asset: string) {
  const line = await store.getTrustline(address, asset);
  if (line) return line;
  const a = (await store.getAccount(address))!;
  await store.putAccount({ ...a, balance: a.balance + 5_000_000n, subentries: a.subentries + 1, lastModifiedLedger: clock.ledger });
  const created = { account: address, asset, balance: 0n, limit: MAX_STROOPS, sponsor: null, lastModifiedLedger: clock.ledger };
  await store.putTrustline(created);
  return created;
}

/** What an account gets when only its existence was asked for: the 1 XLM minimum balance. */
export const MINIMUM_XLM = 10_000_000n;

/** The account (with its 1 XLM minimum) and, for an issued asset, its trustline exist afterwards. */
export async function ensureAccountAndTrustline(store: SandboxStore, clock: Clock, address: string, asset: string): Promise<void> {
  await ensureAccount(store, clock, address, MINIMUM_XLM);
  if (asset !== 'native') await ensureTrustline(store, clock, address, asset);
}

/** Whether ensureAccountAndTrustline would write nothing: lets a caller skip the ledger write. */
export async function hasAccountAndTrustline(store: SandboxStore, address: string, asset: string): Promise<boolean> {
  if (!(await store.getAccount(address))) return false;
  return asset === 'native' || (await store.getTrustline(address, asset)) !== undefined;
}

export async function fundAccount(store: SandboxStore, clock: Clock, address: string, asset: string, amount: bigint): Promise<void> {
  if (amount <= 0n) throw new FaucetError('amount must be positive');
  // Funding XLM creates the account with exactly that amount; funding an issued asset gives a
  // new account its 1 XLM minimum (and ensureTrustline the trustline's 0.5 XLM) on top.
  const account = await ensureAccount(store, clock, address, asset === 'native' ? 0n : MINIMUM_XLM);
  if (asset === 'native') {
    if (account.balance + amount > MAX_STROOPS) throw new FaucetError('balance would overflow');
    await store.putAccount({ ...account, balance: account.balance + amount, lastModifiedLedger: clock.ledger });
    return;
  }
  const line = await ensureTrustline(store, clock, address, asset);
  if (line.balance + amount > line.limit) throw new FaucetError('trustline limit exceeded');
  await store.putTrustline({ ...line, balance: line.balance + amount, lastModifiedLedger: clock.ledger });
}
