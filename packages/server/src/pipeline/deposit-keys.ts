import { Keypair } from '@stellar/stellar-sdk';
import { decryptSecret } from '../lib/crypto.js';
import type { FundingIntentsRepo } from '../records/funding-intents.js';
import { NativeKeypair } from '../stellar/keypair.js';

export interface DepositKey {
  keypair: Keypair;
  /** who signs for the account: the treasury when it co-signs the account, else the account's own key */
  signer: Keypair;
  address: string;
  accountId: string;
  asset: string;
  status: string;
  /** `muxed`: `address` is the collection account (the key's), never to be merged */
  type: 'account' | 'muxed';
  /** what payers pay: the account (G…), or the intent's muxed address (M…) */
  payTo: string;
}

export interface CosignerLookup {
  /** the co-signer the account was created with, if any */
  cosignerOf(depositAccountId: string, address: string): Promise<string | null>;
}

/** The deposit account of an intent, with its key decrypted only for the signature at hand. */
export class DepositKeys {
  constructor(
    private readonly intents: FundingIntentsRepo,
    private readonly secretsKey: Buffer,
    /** the treasury and where co-signers are recorded; null without a network */
    private readonly cosigning: { treasury: Keypair; lookup: CosignerLookup } | null = null,
  ) {}

  async forIntent(intentId: string): Promise<DepositKey> {
    const intent = await this.intents.findById(intentId);
    const account = intent?.deposit_account_id ? await this.intents.findDepositAccount(intent.deposit_account_id) : undefined;
    if (!account) throw new Error(`deposit account of ${intentId} missing`);
    const keypair = NativeKeypair.fromSecret(decryptSecret(this.secretsKey, account.secret_encrypted));
    // a muxed deposit pays out of its collection account: the account the key is for
    const address = account.deposit_type === 'muxed' ? keypair.publicKey() : account.address;
    return { keypair, signer: await this.signerFor(account.id, address, keypair), address, accountId: account.id, asset: account.asset, status: account.status, type: account.deposit_type, payTo: account.address };
  }

  /** Exactly one key signs per account: Stellar refuses a signature nobody needed (tx_bad_auth_extra). */
  private async signerFor(accountId: string, address: string, own: Keypair): Promise<Keypair> {
    if (!this.cosigning) return own;
    const cosigner = await this.cosigning.lookup.cosignerOf(accountId, address);
    return cosigner === this.cosigning.treasury.publicKey() ? this.cosigning.treasury : own;
  }
}
