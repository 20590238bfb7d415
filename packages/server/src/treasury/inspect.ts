/**
 * Reads what assess() needs from the network (the treasury and its channel accounts) and from the
 * database (the deposit pool's ready accounts). Used by `fundkit treasury` and by the deposit pool
 * when a batch fails, to say what is missing.
 */
import type { Keypair } from '@stellar/stellar-sdk';
import { channelKeypair } from '../pipeline/submission/channels.js';
import type { StellarNetwork } from '../stellar/index.js';
import { POOL_ASSETS, type PoolAsset, type TreasuryState } from './assess.js';

export interface InspectDeps {
  network: StellarNetwork;
  treasury: string;
  /** the channel accounts' addresses (channelAddresses) */
  channels: string[];
  poolSize: number;
  /** ready pool accounts of an asset (DepositPool.ready / poolReady) */
  ready: (asset: PoolAsset) => Promise<number>;
}

/** The channel accounts the server derives from the treasury's key (submission/channels.ts). */
export function channelAddresses(treasury: Keypair, count: number): string[] {
  return Array.from({ length: count }, (_, i) => channelKeypair(treasury, i).publicKey());
}

/** The environment a network serves (pipeline/index.ts): live on pubnet, test otherwise. */
export function environmentOf(network: StellarNetwork): 'live' | 'test' {
  return network.kind === 'pubnet' ? 'live' : 'test';
}

/**
 * The one read of the deposit pool's rows the treasury makes (DepositPoolRepo has it), named here
 * so treasury/ imports nothing of pipeline/, which imports treasury/.
 */
export interface PoolReadyCount {
  ready(network: string, environment: string, asset: string): Promise<number>;
}

export function poolReady(repo: PoolReadyCount, network: StellarNetwork): (asset: PoolAsset) => Promise<number> {
  return (asset) => repo.ready(network.kind, environmentOf(network), asset);
}

export async function inspectTreasury(deps: InspectDeps): Promise<TreasuryState> {
  const { network } = deps;
  const account = await network.loadAccount(deps.treasury);
  const channels = [];
  for (const address of deps.channels) channels.push({ address, account: await network.loadAccount(address) });
  const ready = {} as Record<PoolAsset, number>;
  for (const asset of POOL_ASSETS) ready[asset] = await deps.ready(asset);
  return {
    network: network.kind, address: deps.treasury, account, channels,
    assets: { USDC: network.assets.USDC, EURC: network.assets.EURC, XLM: network.assets.XLM },
    pool: { size: deps.poolSize, ready },
  };
}
