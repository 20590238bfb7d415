import { Keypair } from '@stellar/stellar-sdk';
import type { Environment } from '../../http/context.js';

export interface ProvisionRequest {
  applicationId: string;
  environment: Environment;
  /** asset code the account must accept */
  asset: string;
}

export interface ProvisionedAccount {
  address: string;
  secret: string;
  /** ACTIVE once funded and trust-lined; immediate in the sandbox */
  status: 'PROVISIONING' | 'ACTIVE';
}

/**
 * Where deposit accounts come from. Issue 3 uses a random keypair; the Stellar layer
 * (src/stellar/, StellarNetwork) replaces it to create and trust-line the account on its ledger.
 */
export type DepositAccountProvisioner = (request: ProvisionRequest) => Promise<ProvisionedAccount>;

export const randomKeypairProvisioner: DepositAccountProvisioner = async () => {
  const keypair = Keypair.random();
  return { address: keypair.publicKey(), secret: keypair.secret(), status: 'ACTIVE' };
};
