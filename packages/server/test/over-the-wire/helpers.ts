/**
 * Two servers and a network between them: one serves a sandbox Stellar network (its Horizon,
 * friendbot and Stellar RPC over HTTP), the other runs the payment flow on FUNDKIT_STELLAR=custom
 * against it, the way it would against testnet. Wallets are plain stellar-sdk keypairs funded by
 * the friendbot, paying over the same HTTP as any wallet.
 */
import { Asset, Horizon, Keypair, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import type { BootstrapFile } from '../../src/index.js';
import { SANDBOX_ASSETS, SANDBOX_PASSPHRASE } from '../../src/stellar/index.js';
import { KEYS } from '../helpers/server.js';

export const USDC = new Asset('USDC', SANDBOX_ASSETS.USDC.issuer!);

/** The network settings a server on `custom` needs to reach a sandbox served at `sandboxUrl`. */
export function customEnv(sandboxUrl: string, api: 'rpc' | 'horizon'): Record<string, string> {
  return {
    FUNDKIT_STELLAR: 'custom',
    FUNDKIT_NETWORK_PASSPHRASE: SANDBOX_PASSPHRASE,
    FUNDKIT_ASSETS: `USDC:${SANDBOX_ASSETS.USDC.issuer},EURC:${SANDBOX_ASSETS.EURC.issuer}`,
    FUNDKIT_FRIENDBOT_URL: `${sandboxUrl}/sandbox/friendbot`,
    FUNDKIT_HORIZON_URL: `${sandboxUrl}/sandbox/horizon`,
    ...(api === 'rpc' ? { FUNDKIT_RPC_URL: `${sandboxUrl}/sandbox/rpc`, FUNDKIT_STELLAR_API: 'rpc' } : { FUNDKIT_STELLAR_API: 'horizon' }),
  };
}

export class Wallets {
  readonly horizon: Horizon.Server;
  private readonly friendbot: string;

  /** A sandbox server's URL (its /sandbox/horizon and /sandbox/friendbot), or a network's Horizon and friendbot. */
  constructor(at: string | { horizonUrl: string; friendbotUrl: string }) {
    const urls = typeof at === 'string' ? { horizonUrl: `${at}/sandbox/horizon`, friendbotUrl: `${at}/sandbox/friendbot` } : at;
    this.horizon = new Horizon.Server(urls.horizonUrl, { allowHttp: true });
    this.friendbot = urls.friendbotUrl;
  }

  /** 10,000 XLM from the friendbot, and (usdc) a trustline to USDC plus that much of it. */
  async fund(keypair: Keypair, usdc?: string): Promise<void> {
    const created = await fetch(`${this.friendbot}?addr=${keypair.publicKey()}`);
    if (!created.ok) throw new Error(`friendbot: ${created.status} ${await created.text()}`);
    if (usdc === undefined) return;
    await this.submit(keypair, [Operation.changeTrust({ asset: USDC })]);
    if (usdc === '0') return;
    const paid = await fetch(`${this.friendbot}?addr=${keypair.publicKey()}&asset=USDC&amount=${usdc}`);
    if (!paid.ok) throw new Error(`friendbot USDC: ${paid.status} ${await paid.text()}`);
  }

  async submit(keypair: Keypair, operations: ReturnType<typeof Operation.payment>[]): Promise<string> {
    const account = await this.horizon.loadAccount(keypair.publicKey());
    const builder = new TransactionBuilder(account, { fee: '1000', networkPassphrase: SANDBOX_PASSPHRASE }).setTimeout(60);
    for (const op of operations) builder.addOperation(op);
    const tx = builder.build();
    tx.sign(keypair);
    return (await this.horizon.submitTransaction(tx)).hash;
  }

  async pay(payer: Keypair, destination: string, amount: string): Promise<string> {
    return this.submit(payer, [Operation.payment({ destination, asset: USDC, amount })]);
  }

  /** What `address` holds of USDC, as the network says. */
  async usdc(address: string): Promise<string> {
    const account = await this.horizon.loadAccount(address);
    return account.balances.find((b) => 'asset_code' in b && b.asset_code === 'USDC')?.balance ?? '0';
  }
}

/** The application the payment server starts with, settling to an account that exists on the network. */
export function bootstrapWith(settlementAddress: string): BootstrapFile {
  return {
    applications: [{ name: 'Over the wire', settlement_address: settlementAddress, secret_keys: [KEYS.alphaSecretTest], publishable_keys: [KEYS.alphaPublishableTest] }],
  };
}
