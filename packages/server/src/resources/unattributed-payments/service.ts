/**
 * The operator's view of money in a collection account that no intent claims (a payment to the
 * G… address, or to a muxed id no intent has), and its return: never dropped, refundable.
 */
import { Operation } from '@stellar/stellar-sdk';
import { ApiError, notFound } from '../../http/api-error.js';
import { decryptSecret } from '../../lib/crypto.js';
import { fromStroops } from '../../lib/money.js';
import type { CollectionRepo, UnattributedPaymentRow } from '../../pipeline/collection-repo.js';
import type { TreasurySigner } from '../../pipeline/tx.js';
import { parseAssetKey, toSdkAsset } from '../../stellar/index.js';
import { NativeKeypair } from '../../stellar/keypair.js';
import { checkDestination } from '../refunds/rules.js';

export interface UnattributedDeps {
  repo: CollectionRepo;
  /** the treasury's signer; null without a network (then nothing is ever recorded) */
  signer: () => TreasurySigner | null;
  /** the deposit secrets key the collection accounts' secrets are sealed with */
  secretsKey: Buffer;
}

function present(row: UnattributedPaymentRow) {
  return {
    id: row.id, object: 'unattributed_payment' as const, stellar_network: row.network, collection_address: row.collection_address,
    asset: row.asset_code, stellar_asset: row.stellar_asset, amount: fromStroops(row.amount), payer_address: row.payer_address,
    to_muxed_id: row.to_muxed_id, transaction_hash: row.transaction_hash, operation_id: row.operation_id, ledger: Number(row.ledger),
    status: row.status, refund: row.refund_destination ? { destination_address: row.refund_destination, transaction_hash: row.refund_transaction_hash } : null,
    created_at: row.created_at, updated_at: row.updated_at,
  };
}

export class UnattributedPaymentsService {
  constructor(private readonly deps: UnattributedDeps) {}

  async list(limit: number) {
    return { object: 'list' as const, data: (await this.deps.repo.listUnattributed(limit)).map(present), next_cursor: null };
  }

  /**
   * Claims the payment (RECORDED → REFUNDING, so two operators never pay it twice), pays it all
   * back out of the collection account, and records the outcome.
   */
  async refund(id: string, destinationInput: string | undefined) {
    const row = await this.deps.repo.unattributed(id);
    if (!row) throw notFound('unattributed payment');
    const destination = checkDestination(destinationInput ?? row.payer_address, {
      payable: false, memo: false, why: 'an unattributed payment is refunded by a classic payment from its collection account',
    });
    const signer = this.deps.signer();
    if (!signer) throw new ApiError('ROUTE_UNAVAILABLE', 'this server reaches no Stellar network', { retryable: true });
    const collection = await this.deps.repo.byAddress(row.collection_address);
    if (!collection) throw new Error(`collection account ${row.collection_address} missing`);
    if (!await this.deps.repo.claimRefund(id, destination)) {
      throw new ApiError('CONFLICT', `this payment is ${(await this.deps.repo.unattributed(id))!.status}: only a RECORDED one can be refunded`);
    }
    const keypair = NativeKeypair.fromSecret(decryptSecret(this.deps.secretsKey, collection.secret_encrypted));
    const asset = toSdkAsset(parseAssetKey(row.stellar_asset));
    let outcome: { successful: boolean; hash: string | null; code: string | null };
    try {
      const out = await signer.run(null, () => ({
        operations: [Operation.payment({ source: collection.address, destination, asset, amount: fromStroops(row.amount) })], signers: [keypair],
      }), () => undefined);
      outcome = { successful: out.successful, hash: out.hash, code: out.code };
    } catch (error) {
      outcome = { successful: false, hash: null, code: (error as Error).message };
    }
    await this.deps.repo.finishRefund(id, outcome.successful, outcome.successful ? outcome.hash : null);
    if (!outcome.successful) {
      throw new ApiError('ROUTE_UNAVAILABLE', `the refund payment did not succeed (${outcome.code}); the payment is RECORDED again, try again`, { retryable: true });
    }
    return present((await this.deps.repo.unattributed(id))!);
  }
}
