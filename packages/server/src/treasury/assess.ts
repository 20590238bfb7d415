/**
 * What the platform treasury holds and what it still needs for the configured deposit pool and
 * channel accounts (issue 27 item 4). Pure: `inspectTreasury` (inspect.ts) reads the inputs.
 *
 * Reserves, as stellar-core counts them (base reserve 0.5 XLM): an account 2, each subentry
 * (trustline, signer) 1, and a sponsored entry counts for its sponsor, not for the account. So:
 *  - the treasury's own minimum balance is (2 + subentries + sponsoring − sponsored) × 0.5 (it
 *    already covers the pool accounts it sponsors today);
 *  - each pool account still to create adds its sponsored reserves (pipeline/provision.ts): the
 *    account (2), its trustline (1, not for an XLM account) and the treasury as co-signer (1):
 *    2 XLM for a USDC or EURC account, 1.5 XLM for an XLM one;
 *  - each channel account still to create is a createAccount from the treasury with
 *    CHANNEL_STARTING_XLM (20: its minimum balance and the fees it pays for every submission);
 *  - each missing trustline of the treasury adds 0.5 XLM;
 *  - the operations the treasury's own transactions carry (channels, trustlines) cost 100 stroops each.
 */
import { fromStroops, toStroops, trimAmount } from '../lib/money.js';
import { CHANNEL_STARTING_XLM } from '../pipeline/submission/channels.js';
import type { AccountView, NetworkKind, SupportedAsset } from '../stellar/index.js';

export const BASE_RESERVE = 5_000_000n;
/** Stellar's minimum fee per operation, in stroops. */
export const OPERATION_FEE = 100n;
export const POOL_ASSETS = ['USDC', 'EURC', 'XLM'] as const;
export type PoolAsset = (typeof POOL_ASSETS)[number];
export const TRUSTED_ASSETS = ['USDC', 'EURC'] as const;

/** The treasury's reserves one pool account of `asset` locks (see provision.ts: account, trustline, co-signer). */
export function poolAccountReserves(asset: PoolAsset): bigint {
  return BigInt(2 + (asset === 'XLM' ? 0 : 1) + 1) * BASE_RESERVE;
}

export interface TreasuryState {
  network: NetworkKind;
  address: string;
  /** null: not on the network */
  account: AccountView | null;
  assets: Record<PoolAsset, SupportedAsset>;
  channels: Array<{ address: string; account: AccountView | null }>;
  /** FUNDKIT_DEPOSIT_POOL_SIZE and the accounts ready (on chain, unclaimed) per asset */
  pool: { size: number; ready: Record<PoolAsset, number> };
}

export interface Need {
  /** machine name: account, trustlines, channels, pool_USDC, pool_EURC, pool_XLM, fees */
  item: string;
  label: string;
  count: number;
  /** stroops each */
  each: bigint;
  total: bigint;
}

export interface Assessment {
  state: TreasuryState;
  xlm: bigint;
  needs: Need[];
  required: bigint;
  /** XLM to add: max(0, required − xlm) */
  shortfall: bigint;
  missingTrustlines: PoolAsset[];
  channelsToCreate: number;
  poolToCreate: Record<PoolAsset, number>;
  /** nothing missing: the account exists, trusts the assets, and holds what the pool and channels need */
  ok: boolean;
}

export function nativeBalance(account: AccountView | null): bigint {
  return account?.balances.find((b) => b.asset.issuer === null)?.balance ?? 0n;
}

export function trustline(account: AccountView | null, asset: SupportedAsset) {
  return account?.balances.find((b) => b.asset.code === asset.code && b.asset.issuer === asset.issuer) ?? null;
}

export function assess(state: TreasuryState): Assessment {
  const { account } = state;
  const reserves = account ? 2 + account.subentryCount + account.numSponsoring - account.numSponsored : 2;
  const missingTrustlines = TRUSTED_ASSETS.filter((code) => !trustline(account, state.assets[code]));
  const channelsToCreate = state.channels.filter((c) => !c.account).length;
  const poolToCreate = Object.fromEntries(POOL_ASSETS.map((a) => [a, Math.max(0, state.pool.size - state.pool.ready[a])])) as Record<PoolAsset, number>;
  const need = (item: string, label: string, count: number, each: bigint): Need => ({ item, label, count, each, total: BigInt(count) * each });
  const needs = [
    need('account', account
      ? `treasury minimum balance now (2 + ${account.subentryCount} subentries + ${account.numSponsoring} sponsoring − ${account.numSponsored} sponsored reserves)`
      : 'treasury account (2 reserves)', reserves, BASE_RESERVE),
    need('trustlines', `trustlines to add${missingTrustlines.length ? ` (${missingTrustlines.join(', ')})` : ''}`, missingTrustlines.length, BASE_RESERVE),
    need('channels', 'channel accounts to create (starting balance)', channelsToCreate, toStroops(CHANNEL_STARTING_XLM)),
    ...POOL_ASSETS.map((a) => need(`pool_${a}`, `${a} pool accounts to create (sponsored reserves)`, poolToCreate[a], poolAccountReserves(a))),
    need('fees', 'fees of the treasury\'s own operations', missingTrustlines.length + channelsToCreate, OPERATION_FEE),
  ];
  const required = needs.reduce((sum, n) => sum + n.total, 0n);
  const xlm = nativeBalance(account);
  const shortfall = required > xlm ? required - xlm : 0n;
  return {
    state, xlm, needs, required, shortfall, missingTrustlines, channelsToCreate, poolToCreate,
    ok: account !== null && shortfall === 0n && missingTrustlines.length === 0,
  };
}

/** "53.00004" */
export function xlm(stroops: bigint): string {
  return trimAmount(fromStroops(stroops));
}

/** One line for a log or an error: what is missing, how much, and how to fix it. */
export function shortfallMessage(a: Assessment): string {
  const { state } = a;
  const parts: string[] = [];
  if (!state.account) parts.push('the account does not exist on the network');
  if (a.shortfall > 0n) {
    const terms = a.needs.filter((n) => n.count > 0).map((n) => `${n.item === 'account' ? (state.account ? 'its minimum balance' : 'the account') : `${n.count} ${n.item.replace('pool_', 'pool ')}`} ${xlm(n.total)}`);
    parts.push(`needs ${xlm(a.shortfall)} XLM more (balance ${xlm(a.xlm)} of ${xlm(a.required)} required: ${terms.join(' + ')})`);
  }
  if (a.missingTrustlines.length > 0) parts.push(`lacks trustlines to ${a.missingTrustlines.join(', ')}`);
  const fix = state.network === 'pubnet'
    ? (a.shortfall > 0n ? `send ${xlm(a.shortfall)} XLM to ${state.address}${a.missingTrustlines.length ? ', then run `fundkit treasury --fund` to add the trustlines' : ''}` : 'run `fundkit treasury --fund` to add the trustlines')
    : 'run `pnpm fundkit treasury --fund`';
  return `treasury ${state.address} (${state.network}) ${parts.join('; ')}: the deposit pool cannot fill until it is funded; ${fix} (fundkit treasury shows the details)`;
}
