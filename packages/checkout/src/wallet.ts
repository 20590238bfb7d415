// The lazy wallet chunk: the Stellar SDK and Freighter load only when the payer asks for them.
// SDK 17 dropped the `/minimal` entry: its default entry is the fetch-based build (axios moved to `/axios`).
import { getNetworkDetails, isConnected, requestAccess, signTransaction } from '@stellar/freighter-api';
import { Asset, BASE_FEE, Horizon, Networks, Operation, TransactionBuilder } from '@stellar/stellar-sdk';

export interface WalletPayment {
  /** the API origin: the sandbox's Horizon lives under it */
  baseUrl: string;
  stellarNetwork: string;
  destination: string;
  amount: string;
  assetCode: string;
  assetIssuer: string | null;
}

const HORIZON: Record<string, string> = {
  testnet: 'https://horizon-testnet.stellar.org',
  pubnet: 'https://horizon.stellar.org',
};

const PASSPHRASE: Record<string, string> = {
  testnet: Networks.TESTNET,
  pubnet: Networks.PUBLIC,
  sandbox: Networks.STANDALONE,
};

function horizonUrl(payment: WalletPayment): string {
  return HORIZON[payment.stellarNetwork] ?? `${payment.baseUrl.replace(/\/+$/, '')}/sandbox/horizon`;
}

export class WalletError extends Error {
  constructor(message: string, readonly code: 'not_installed' | 'rejected' | 'failed') {
    super(message);
  }
}

/** Builds the exact payment, has Freighter sign it, submits it; returns the transaction hash. */
export async function payWithFreighter(payment: WalletPayment): Promise<string> {
  if (!(await isConnected()).isConnected) throw new WalletError('Freighter is not installed', 'not_installed');
  const access = await requestAccess();
  if (access.error || !access.address) throw new WalletError(access.error?.message ?? 'access was refused', 'rejected');
  const passphrase = PASSPHRASE[payment.stellarNetwork] ?? (await getNetworkDetails()).networkPassphrase;
  const server = new Horizon.Server(horizonUrl(payment), { allowHttp: horizonUrl(payment).startsWith('http://') });
  const account = await server.loadAccount(access.address);
  const asset = payment.assetIssuer ? new Asset(payment.assetCode, payment.assetIssuer) : Asset.native();
  const tx = new TransactionBuilder(account, { fee: BASE_FEE, networkPassphrase: passphrase })
    .addOperation(Operation.payment({ destination: payment.destination, asset, amount: payment.amount }))
    .setTimeout(180)
    .build();
  const signed = await signTransaction(tx.toXDR(), { networkPassphrase: passphrase, address: access.address });
  if (signed.error || !signed.signedTxXdr) throw new WalletError(signed.error?.message ?? 'signing was refused', 'rejected');
  const result = await server.submitTransaction(TransactionBuilder.fromXDR(signed.signedTxXdr, passphrase), { skipMemoRequiredCheck: true });
  return result.hash;
}
