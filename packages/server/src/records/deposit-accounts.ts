/**
 * Where a new intent's deposit account (or a muxed intent's collection account) comes from: the
 * intent's create (resources/) takes one, the pipeline's sources provide them (records/README.md).
 */
import type { Environment } from '../domain/environment.js';
import { NativeKeypair } from '../stellar/keypair.js';

export interface ProvisionRequest {
  applicationId: string;
  environment: Environment;
  /** asset code the account must accept */
  asset: string;
}

/** The account's secret as it comes (`secret`), or already sealed with the deposit secrets key (`sealed`, as stored). */
export type ProvisionedAccount = {
  address: string;
  /** ACTIVE: on chain and trust-lined (taken from the warm pool); PROVISIONING: a worker creates it */
  status: 'PROVISIONING' | 'ACTIVE';
} & ({ secret: string } | { sealed: string });

/**
 * Where a new intent's deposit account comes from. `take` runs INSIDE the create's transaction and
 * never waits for the chain: the pipeline's source claims an account of the warm pool (ACTIVE) or
 * answers a fresh PROVISIONING keypair that its worker creates on chain later.
 */
export interface DepositAccountSource {
  /** before the transaction; only test sources wait here (to hold a create open), never the chain */
  prepare?(request: ProvisionRequest): Promise<ProvisionedAccount>;
  take(request: ProvisionRequest, prepared: ProvisionedAccount | undefined): Promise<ProvisionedAccount> | ProvisionedAccount;
  /** after the commit: watch the account, wake the worker */
  taken?(request: ProvisionRequest, account: ProvisionedAccount): void;
  /** the server closes: threads of the source end */
  close?(): Promise<void>;
}

/** An asynchronous stand-in (tests): its answer is taken as is. */
export type DepositAccountProvisioner = (request: ProvisionRequest) => Promise<ProvisionedAccount>;

export const randomKeypairProvisioner: DepositAccountProvisioner = async () => randomAccount();

export function randomAccount(): ProvisionedAccount {
  const keypair = NativeKeypair.random();
  return { address: keypair.publicKey(), secret: keypair.secret(), status: 'ACTIVE' };
}

/** No network (or an environment it does not serve): an active random keypair, as before any ledger. */
export const randomKeypairSource: DepositAccountSource = { take: () => randomAccount() };

export function provisionerSource(provision: DepositAccountProvisioner): DepositAccountSource {
  return { prepare: provision, take: (_request, prepared) => prepared! };
}

/** The collection account a `muxed` intent's address is on: its G… address and its secret, sealed as deposit secrets are. */
export interface CollectionAccount {
  address: string;
  sealed: string;
}

/**
 * Where `muxed` intents get their collection account (a database read, cached: a collection
 * account never changes once active). Never a request to the network.
 */
export interface CollectionSource {
  /** null: this environment's network has no active collection account for the asset (not onboarded) */
  collectionFor(environment: Environment, asset: string): Promise<CollectionAccount | null>;
}

export const noCollections: CollectionSource = { collectionFor: async () => null };
