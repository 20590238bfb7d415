import { Keypair } from '@stellar/stellar-sdk';
import { decryptSecret } from '../lib/crypto.js';
import type { FundingIntentsRepo } from '../resources/funding-intents/repo.js';

/** The deposit account of an intent, with its key decrypted only for the signature at hand. */
export class DepositKeys {
  constructor(private readonly intents: FundingIntentsRepo, private readonly secretsKey: Buffer) {}

  forIntent(intentId: string): { keypair: Keypair; address: string; accountId: string; asset: string; status: string } {
    const intent = this.intents.findById(intentId);
    const account = intent?.deposit_account_id ? this.intents.findDepositAccount(intent.deposit_account_id) : undefined;
    if (!account) throw new Error(`deposit account of ${intentId} missing`);
    const keypair = Keypair.fromSecret(decryptSecret(this.secretsKey, account.secret_encrypted));
    return { keypair, address: account.address, accountId: account.id, asset: account.asset, status: account.status };
  }
}
