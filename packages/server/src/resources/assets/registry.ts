import { Asset, Networks } from '@stellar/stellar-sdk';
import type { Environment } from '../../domain/environment.js';

export type StellarNetworkName = 'sandbox' | 'testnet' | 'pubnet' | 'custom';

interface AssetDefinition {
  code: 'USDC' | 'EURC' | 'XLM';
  name: string;
  issuers: Record<'testnet' | 'pubnet', string> | null;
}

/** The supported set (DESIGN §2). Issuers are Circle's on testnet and pubnet. */
const DEFINITIONS: AssetDefinition[] = [
  {
    code: 'USDC',
    name: 'USD Coin',
    issuers: {
      testnet: 'GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5',
      pubnet: 'GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN',
    },
  },
  {
    code: 'EURC',
    name: 'Euro Coin',
    issuers: {
      testnet: 'GB3Q6QDZYTHWT7E5PVS3W7FUT5GVAFC5KSZFFLPU25GO7VTC3NM2ZTVO',
      pubnet: 'GDHU6WRG4IEQXM5NZ4BMPKOXHW76MZM4Y2IEMFDVXBSDP6SJY4ITNPP2',
    },
  },
  { code: 'XLM', name: 'Stellar Lumens', issuers: null },
];

export interface AssetInfo {
  id: string;
  object: 'asset';
  code: string;
  symbol: string;
  name: string;
  network: 'stellar';
  stellar_network: StellarNetworkName;
  stellar_asset: string;
  issuer: string | null;
  contract: string;
  decimals: number;
}


/** The sandbox network uses the standalone passphrase (as its GET /sandbox/info says). */
const PASSPHRASES: Record<StellarNetworkName, string> = { sandbox: Networks.STANDALONE, testnet: Networks.TESTNET, pubnet: Networks.PUBLIC, custom: '' };

/** A custom network's issuers (FUNDKIT_ASSETS), set once at start from the configuration. */
let customIssuers: Record<string, string> = {};

export function useCustomNetwork(passphrase: string, issuers: { USDC: string; EURC: string }): void {
  PASSPHRASES.custom = passphrase;
  customIssuers = { ...issuers };
  for (const key of [...cache.keys()]) if (key.endsWith(':custom')) cache.delete(key);
}

/** Live keys use pubnet only; test keys the configured test network (sandbox, testnet or a custom one). */
export function networkFor(environment: Environment, mode: 'sandbox' | 'testnet' | 'pubnet' | 'custom'): StellarNetworkName {
  if (environment === 'live') return 'pubnet';
  return mode === 'pubnet' ? 'testnet' : mode;
}

const cache = new Map<string, AssetInfo>();

function describe(definition: AssetDefinition, network: StellarNetworkName): AssetInfo {
  // the sandbox mirrors testnet's issuers, so the same asset strings work in both
  const issuer = network === 'custom' ? customIssuers[definition.code] ?? null : definition.issuers?.[network === 'sandbox' ? 'testnet' : network] ?? null;
  const asset = issuer ? new Asset(definition.code, issuer) : Asset.native();
  return {
    id: definition.code,
    object: 'asset',
    code: definition.code,
    symbol: definition.code,
    name: definition.name,
    network: 'stellar',
    stellar_network: network,
    stellar_asset: issuer ? `${definition.code}:${issuer}` : 'native',
    issuer,
    contract: asset.contractId(PASSPHRASES[network]),
    decimals: 7,
  };
}

export function listAssets(network: StellarNetworkName): AssetInfo[] {
  return DEFINITIONS.map((d) => findAsset(d.code, network)!);
}

/** By code, case-insensitive (`usdc`, `USDC`). */
export function findAsset(code: string, network: StellarNetworkName): AssetInfo | undefined {
  const definition = DEFINITIONS.find((d) => d.code === code.toUpperCase());
  if (!definition) return undefined;
  const key = `${definition.code}:${network}`;
  let info = cache.get(key);
  if (!info) {
    info = describe(definition, network);
    cache.set(key, info);
  }
  return info;
}
