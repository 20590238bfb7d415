import type { StellarMode } from '../../config.js';
import { notFound } from '../../http/api-error.js';
import type { Environment } from '../../domain/environment.js';
import { isoNow } from '../../lib/time.js';
import type { NetworkProfile } from '../../stellar/networks.js';
import { findAsset, listAssets, networkFor, useCustomNetwork, type AssetInfo, type StellarNetworkName } from './registry.js';
import type { AssetsRepo } from './repo.js';

export type PresentedAsset = AssetInfo & { enabled: boolean };

export type AssetList = { readonly object: 'list'; readonly data: readonly PresentedAsset[]; readonly next_cursor: null };

export class AssetsService {
  /** The list answer by network, while the disabled set it was built from is current (frozen: shared by requests). */
  private readonly lists = new Map<StellarNetworkName, { disabled: ReadonlySet<string>; list: AssetList }>();

  constructor(private readonly repo: AssetsRepo, private readonly mode: StellarMode, network: NetworkProfile | null = null) {
    if (mode === 'custom' && network) useCustomNetwork(network.passphrase, network.issuers);
  }

  network(environment: Environment): StellarNetworkName {
    return networkFor(environment, this.mode);
  }

  async list(environment: Environment): Promise<AssetList> {
    const network = this.network(environment);
    const disabled = await this.repo.disabledCodes();
    const cached = this.lists.get(network);
    if (cached?.disabled === disabled) return cached.list;
    const data = listAssets(network).map((a) => Object.freeze({ ...a, enabled: !disabled.has(a.code) }));
    const list: AssetList = Object.freeze({ object: 'list' as const, data: Object.freeze(data), next_cursor: null });
    this.lists.set(network, { disabled, list });
    return list;
  }

  async get(environment: Environment, id: string): Promise<PresentedAsset> {
    const asset = findAsset(id, this.network(environment));
    if (!asset) throw notFound('asset');
    return { ...asset, enabled: !(await this.repo.disabledCodes()).has(asset.code) };
  }

  /** An enabled asset of the registry, or undefined (the caller names the error). */
  async findEnabled(environment: Environment, code: string): Promise<AssetInfo | undefined> {
    const asset = findAsset(code, this.network(environment));
    return asset && !(await this.repo.disabledCodes()).has(asset.code) ? asset : undefined;
  }

  /** Operator: enable or disable; answered in the test network's terms. */
  async setEnabled(id: string, enabled: boolean): Promise<PresentedAsset> {
    const asset = findAsset(id, this.network('test'));
    if (!asset) throw notFound('asset');
    await this.repo.setEnabled(asset.code, enabled, isoNow());
    return { ...asset, enabled };
  }
}
