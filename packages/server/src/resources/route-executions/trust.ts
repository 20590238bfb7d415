/**
 * Accepting a quote in another asset: the deposit account trusts only its destination asset, so
 * a sponsored changeTrust (the treasury pays the reserve, as it did for the first trustline) is
 * submitted for real before the payer is told to send the source asset.
 */
import { Operation } from '@stellar/stellar-sdk';
import { ApiError } from '../../http/api-error.js';
import type { DepositKeys } from '../../pipeline/deposit-keys.js';
import type { TreasurySigner } from '../../pipeline/tx.js';
import type { AssetCode } from '../../pricing/price.js';
import { sameAsset, toSdkAsset, type StellarNetwork } from '../../stellar/index.js';

export interface TrustDeps {
  network: StellarNetwork;
  signer: TreasurySigner;
  depositKeys: DepositKeys;
}

export async function ensureTrust(deps: TrustDeps, intentId: string, code: string): Promise<void> {
  const asset = deps.network.assets[code as AssetCode];
  if (asset.issuer === null) return;
  const deposit = await deps.depositKeys.forIntent(intentId);
  const account = await deps.network.loadAccount(deposit.address);
  if (!account) throw new ApiError('ROUTE_UNAVAILABLE', 'the deposit account is not on the network yet; try again shortly');
  if (account.balances.some((b) => sameAsset(b.asset, asset))) return;
  const treasury = deps.signer.treasury.publicKey();
  const out = await deps.signer.run(null, () => ({
    operations: [
      Operation.beginSponsoringFutureReserves({ source: treasury, sponsoredId: deposit.address }),
      Operation.changeTrust({ asset: toSdkAsset(asset), source: deposit.address }),
      Operation.endSponsoringFutureReserves({ source: deposit.address }),
    ],
    signers: [deposit.signer],
  }), () => undefined);
  if (!out.successful) throw new ApiError('ROUTE_UNAVAILABLE', `the deposit account could not be prepared for ${code} (${out.code ?? 'rejected'}); try again`);
}
