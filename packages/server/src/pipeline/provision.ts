/**
 * Deposit accounts on the sandbox ledger: one fresh keypair per intent, created from the treasury
 * with sponsored reserves and its trustline in ONE real transaction (begin sponsoring, create
 * account, change trust, end sponsoring; signed by the treasury and the deposit key).
 */
import { Keypair, Operation } from '@stellar/stellar-sdk';
import { ApiError } from '../http/api-error.js';
import type { DepositAccountProvisioner } from '../resources/funding-intents/deposit-accounts.js';
import { toSdkAsset, type StellarNetwork } from '../stellar/index.js';
import type { TreasurySigner } from './tx.js';
import type { WatchRepo } from './watch-repo.js';

export function sponsoredAccountOps(treasury: string, deposit: string, asset: ReturnType<typeof toSdkAsset>) {
  return [
    Operation.beginSponsoringFutureReserves({ source: treasury, sponsoredId: deposit }),
    Operation.createAccount({ destination: deposit, startingBalance: '0' }),
    ...(asset.isNative() ? [] : [Operation.changeTrust({ asset, source: deposit })]),
    Operation.endSponsoringFutureReserves({ source: deposit }),
  ];
}

export function networkProvisioner(opts: {
  network: StellarNetwork;
  networkName: string;
  signer: TreasurySigner;
  watch: WatchRepo;
  /** the new address is watched at once, before the intent row even exists */
  onProvisioned: (address: string) => void;
  /** environments this network serves; others get the fallback */
  serves: (environment: string) => boolean;
  fallback: DepositAccountProvisioner;
}): DepositAccountProvisioner {
  return async (request) => {
    if (!opts.serves(request.environment)) return opts.fallback(request);
    const keypair = Keypair.random();
    const asset = toSdkAsset(opts.network.assets[request.asset as 'USDC' | 'EURC' | 'XLM']);
    const out = await opts.signer.run(null, () => ({
      operations: sponsoredAccountOps(opts.signer.treasury.publicKey(), keypair.publicKey(), asset), signers: [keypair],
    }), () => undefined).catch((error: unknown) => {
      throw new ApiError('PROTOCOL_UNAVAILABLE', `the ${opts.networkName} network is unreachable (${error instanceof Error ? error.message : 'error'}); retry`);
    });
    if (!out.successful) {
      throw new ApiError('PROTOCOL_UNAVAILABLE', `the deposit account could not be created on the ${opts.networkName} network (${out.code ?? 'rejected'}); retry`);
    }
    opts.watch.add(keypair.publicKey(), opts.networkName, out.hash);
    opts.onProvisioned(keypair.publicKey());
    return { address: keypair.publicKey(), secret: keypair.secret(), status: 'ACTIVE' };
  };
}
