/**
 * Which Stellar network the server speaks to, and through which API: testnet and pubnet are
 * presets that FUNDKIT_RPC_URL, FUNDKIT_HORIZON_URL, FUNDKIT_FRIENDBOT_URL and FUNDKIT_ASSETS
 * override; `custom` (a local quickstart, futurenet, a private network) takes them all, with
 * FUNDKIT_NETWORK_PASSPHRASE. Stellar RPC is the default where an RPC URL is known (SDF's
 * recommendation); Horizon is the alternative.
 */
import { Networks } from '@stellar/stellar-sdk';
import { PUBNET_EURC_ISSUER, PUBNET_USDC_ISSUER, TESTNET_EURC_ISSUER, TESTNET_USDC_ISSUER } from './assets.js';

export type RealNetworkKind = 'testnet' | 'pubnet' | 'custom';
export type StellarApi = 'rpc' | 'horizon';

export interface Issuers {
  USDC: string;
  EURC: string;
}

export interface NetworkProfile {
  /** `sandbox`: the sandbox network reached over HTTP (its thread or a `fundkit sandbox`, pipeline/stellar.ts) */
  kind: RealNetworkKind | 'sandbox';
  passphrase: string;
  rpcUrl: string | null;
  horizonUrl: string | null;
  friendbotUrl: string | null;
  issuers: Issuers;
  /** what the follower, submission and account reads go through */
  api: StellarApi;
}

/** What the operator set (config.ts parses and checks each value's form). */
export interface NetworkSettings {
  passphrase: string | null;
  rpcUrl: string | null;
  horizonUrl: string | null;
  friendbotUrl: string | null;
  issuers: Partial<Issuers> | null;
  api: StellarApi | null;
}

/** SDF runs a public RPC for testnet, not for pubnet: there the operator names a provider's or their own. */
const PRESETS: Record<'testnet' | 'pubnet', Omit<NetworkProfile, 'api' | 'kind'>> = {
  testnet: {
    passphrase: Networks.TESTNET, rpcUrl: 'https://soroban-testnet.stellar.org', horizonUrl: 'https://horizon-testnet.stellar.org',
    friendbotUrl: 'https://friendbot.stellar.org', issuers: { USDC: TESTNET_USDC_ISSUER, EURC: TESTNET_EURC_ISSUER },
  },
  pubnet: {
    passphrase: Networks.PUBLIC, rpcUrl: null, horizonUrl: 'https://horizon.stellar.org', friendbotUrl: null,
    issuers: { USDC: PUBNET_USDC_ISSUER, EURC: PUBNET_EURC_ISSUER },
  },
};

export class NetworkSettingsError extends Error {}

/**
 * The API: FUNDKIT_STELLAR_API when set; else the one URL the operator named when they named only
 * one (their own Horizon on testnet means Horizon); else RPC where an RPC URL is known.
 */
function chooseApi(set: NetworkSettings, rpcUrl: string | null, horizonUrl: string | null): StellarApi {
  if (set.api === 'rpc' && !rpcUrl) throw new NetworkSettingsError('FUNDKIT_STELLAR_API=rpc needs FUNDKIT_RPC_URL (SDF runs no public RPC for pubnet: name a provider\'s or your own)');
  if (set.api === 'horizon' && !horizonUrl) throw new NetworkSettingsError('FUNDKIT_STELLAR_API=horizon needs FUNDKIT_HORIZON_URL');
  if (set.api) return set.api;
  if (set.horizonUrl && !set.rpcUrl) return 'horizon';
  return rpcUrl ? 'rpc' : 'horizon';
}

export function resolveNetwork(kind: RealNetworkKind, set: NetworkSettings): NetworkProfile {
  if (kind === 'custom') {
    if (!set.passphrase) throw new NetworkSettingsError('FUNDKIT_STELLAR=custom needs FUNDKIT_NETWORK_PASSPHRASE (e.g. "Standalone Network ; February 2017" for stellar/quickstart --local)');
    if (set.passphrase === Networks.PUBLIC) throw new NetworkSettingsError('FUNDKIT_NETWORK_PASSPHRASE is pubnet\'s: use FUNDKIT_STELLAR=pubnet (with FUNDKIT_RPC_URL or FUNDKIT_HORIZON_URL to name your own servers)');
    if (!set.rpcUrl && !set.horizonUrl) throw new NetworkSettingsError('FUNDKIT_STELLAR=custom needs FUNDKIT_RPC_URL or FUNDKIT_HORIZON_URL (or both)');
    if (!set.issuers?.USDC || !set.issuers.EURC) throw new NetworkSettingsError('FUNDKIT_STELLAR=custom needs FUNDKIT_ASSETS with the USDC and EURC issuers, e.g. USDC:G…,EURC:G… (XLM is always there)');
    const issuers = { USDC: set.issuers.USDC, EURC: set.issuers.EURC };
    return { kind, passphrase: set.passphrase, rpcUrl: set.rpcUrl, horizonUrl: set.horizonUrl, friendbotUrl: set.friendbotUrl, issuers, api: chooseApi(set, set.rpcUrl, set.horizonUrl) };
  }
  const preset = PRESETS[kind];
  if (set.passphrase && set.passphrase !== preset.passphrase) {
    throw new NetworkSettingsError(`FUNDKIT_NETWORK_PASSPHRASE "${set.passphrase}" is not ${kind}'s ("${preset.passphrase}"): for another network use FUNDKIT_STELLAR=custom`);
  }
  const rpcUrl = set.rpcUrl ?? preset.rpcUrl;
  const horizonUrl = set.horizonUrl ?? preset.horizonUrl;
  return {
    kind, passphrase: preset.passphrase, rpcUrl, horizonUrl, friendbotUrl: set.friendbotUrl ?? preset.friendbotUrl,
    issuers: { ...preset.issuers, ...set.issuers }, api: chooseApi(set, rpcUrl, horizonUrl),
  };
}
