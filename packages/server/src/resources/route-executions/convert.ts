/**
 * The conversion itself: a strict-receive path payment from the deposit account to itself, so
 * the deposit account then holds exactly the destination amount and the ordinary DIRECT
 * settlement pays it out (settlement stays one code path for every route).
 */
import { Asset, Operation, xdr, type Keypair } from '@stellar/stellar-sdk';
import { fromStroops } from '../../lib/money.js';
import type { TreasurySigner, TxOutcome } from '../../pipeline/tx.js';
import { toSdkAsset, type AssetRef, type StellarNetwork } from '../../stellar/index.js';

export interface ConversionSpec {
  /** `signer`: the key that signs for the account (the treasury when it co-signs it) */
  deposit: { address: string; signer: Keypair };
  sendAsset: AssetRef;
  sendMax: bigint;
  destAsset: AssetRef;
  destAmount: bigint;
  path: AssetRef[];
}

export function submitConversion(signer: TreasurySigner, stored: string | null, c: ConversionSpec, save: (envelope: string) => Promise<void> | void): Promise<TxOutcome> {
  return signer.run(stored, () => ({
    operations: [Operation.pathPaymentStrictReceive({
      source: c.deposit.address, destination: c.deposit.address, sendAsset: toSdkAsset(c.sendAsset), sendMax: fromStroops(c.sendMax),
      destAsset: toSdkAsset(c.destAsset), destAmount: fromStroops(c.destAmount), path: c.path.map(toSdkAsset),
    })],
    signers: [c.deposit.signer],
  }), save);
}

/** What the conversion really spent: the offers that bought the send asset, read from the result. */
export async function sourceSpent(network: StellarNetwork, hash: string, sendAsset: AssetRef, opIndex = 0): Promise<bigint | null> {
  const view = await network.getTransaction(hash);
  if (!view) return null;
  try {
    // the conversion may share its transaction with other treasury work: read its own result
    const result = xdr.TransactionResult.fromXdr(view.resultXdr, 'base64').result;
    const op = xdr.expectUnionVariant(result, result.type === 'txFailed' ? 'txFailed' : 'txSuccess').results[opIndex]!;
    const tr = xdr.expectUnionVariant(op, 'opInner').tr;
    const received = xdr.expectUnionVariant(tr, 'pathPaymentStrictReceive').pathPaymentStrictReceiveResult;
    const offers = xdr.expectUnionVariant(received, 'pathPaymentStrictReceiveSuccess').success.offers;
    const asset = toSdkAsset(sendAsset);
    return offers.reduce((sum, atom) => {
      // a liquidity-pool atom throws here, as `v0()` did on 14: the spend is then unknown (null)
      const claim = atom.type === 'claimAtomTypeOrderBook' ? atom.orderBook : xdr.expectUnionVariant(atom, 'claimAtomTypeV0').v0;
      return Asset.fromOperation(claim.assetBought).equals(asset) ? sum + claim.amountBought : sum;
    }, 0n);
  } catch {
    return null;
  }
}
