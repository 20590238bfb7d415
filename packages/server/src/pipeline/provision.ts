/**
 * Deposit accounts on chain: each is created from the treasury with sponsored reserves and its
 * trustline (begin sponsoring, create account with 0 XLM, change trust, end sponsoring), many of
 * them per transaction (see deposit-pool.ts).
 */
import { Operation, type xdr } from '@stellar/stellar-sdk';
import { toSdkAsset } from '../stellar/index.js';

/**
 * Stellar allows 100 operations and 20 signatures per transaction. Each account's changeTrust,
 * setOptions and endSponsoring have the account itself as source, so it signs its creation;
 * with the channel account (the transaction's source) and the treasury (the sponsor) that leaves
 * 18 deposit keys.
 */
export const MAX_ACCOUNTS_PER_TX = 18;

/**
 * The operations that create ONE deposit account. Keep every per-account operation here: the
 * batched submission engine adds the treasury as the account's co-signer in this one place.
 */
export function sponsoredAccountOps(treasury: string, deposit: string, asset: ReturnType<typeof toSdkAsset>): xdr.Operation[] {
  return [
    Operation.beginSponsoringFutureReserves({ source: treasury, sponsoredId: deposit }),
    Operation.createAccount({ destination: deposit, startingBalance: '0' }),
    ...(asset.isNative() ? [] : [Operation.changeTrust({ asset, source: deposit })]),
    // The treasury co-signs (weight 1 meets the default thresholds of 0): every later transaction
    // from this account — settlement, refund, retirement — needs no signature of its own key.
    Operation.setOptions({ source: deposit, signer: { ed25519PublicKey: treasury, weight: 1 } }),
    Operation.endSponsoringFutureReserves({ source: deposit }),
  ];
}
