import { parseAssetKey } from './shared/assets.js';
import { MAX_STROOPS } from './shared/money.js';
import { addNative, availableNative, liabilities } from './accounts.js';
import type { SandboxStore } from './store.js';

/** Why a debit or credit cannot happen, in the words shared by payment-like result codes. */
export type BalanceError = 'underfunded' | 'src_no_trust' | 'no_trust' | 'line_full' | 'no_destination';

function isIssuer(account: string, asset: string): boolean {
  return asset !== 'native' && parseAssetKey(asset).issuer === account;
}

/** What `account` can send of `asset` now (issuers mint, so they are unlimited). */
export async function spendable(store: SandboxStore, account: string, asset: string): Promise<bigint | BalanceError> {
  if (isIssuer(account, asset)) return MAX_STROOPS;
  if (asset === 'native') {
    const a = await store.getAccount(account);
    return a ? await availableNative(store, a) : 'underfunded';
  }
  const line = await store.getTrustline(account, asset);
  if (!line) return 'src_no_trust';
  return line.balance - (await liabilities(store, account, asset)).selling;
}

export async function debit(
  store: SandboxStore, account: string, asset: string, amount: bigint, ledger: number,
): Promise<BalanceError | null> {
  const can = await spendable(store, account, asset);
  if (typeof can === 'string') return can;
  if (can < amount) return 'underfunded';
  if (isIssuer(account, asset)) return null;
  if (asset === 'native') return await addNative(store, account, -amount, ledger) ? null : 'underfunded';
  const line = (await store.getTrustline(account, asset))!;
  await store.putTrustline({ ...line, balance: line.balance - amount, lastModifiedLedger: ledger });
  return null;
}

export async function credit(
  store: SandboxStore, account: string, asset: string, amount: bigint, ledger: number,
): Promise<BalanceError | null> {
  const dest = await store.getAccount(account);
  if (!dest) return 'no_destination';
  if (isIssuer(account, asset)) return null; // paying the issuer burns the asset
  if (asset === 'native') {
    return dest.balance + amount > MAX_STROOPS ? 'line_full' : await addNative(store, account, amount, ledger) ? null : 'line_full';
  }
  const line = await store.getTrustline(account, asset);
  if (!line) return 'no_trust';
  const room = line.limit - line.balance - (await liabilities(store, account, asset)).buying;
  if (amount > room) return 'line_full';
  await store.putTrustline({ ...line, balance: line.balance + amount, lastModifiedLedger: ledger });
  return null;
}
