import type { Network } from './app-api.js';

/**
 * Where a transaction can be looked at: the reference server's own Horizon on the sandbox (its
 * embedded ledger is on no public explorer), stellar.expert on testnet and pubnet.
 */
export function transactionUrl(network: Network | string, hash: string): string {
  if (network === 'sandbox') return `${location.origin}/sandbox/horizon/transactions/${hash}`;
  return `https://stellar.expert/explorer/${network === 'pubnet' ? 'public' : 'testnet'}/tx/${hash}`;
}
