/**
 * Sandbox-only conveniences: the faucet-funded payer of the test helpers, and destinations made
 * to exist (the sandbox has no outside world, so a merchant's settlement address is materialised
 * with a trustline the first time money is sent to it). Everything goes to the sandbox as to any
 * network: the faucet over HTTP (stellar/sandbox/link.ts), the payments as signed transactions.
 */
import { Keypair, Operation, TransactionBuilder, BASE_FEE, Account, Memo } from '@stellar/stellar-sdk';
import { fromStroops } from '../lib/money.js';
import { parseAssetKey, toSdkAsset, type AssetRef, type StellarNetwork } from '../stellar/index.js';
import type { SandboxLink } from '../stellar/sandbox/link.js';
import { NativeKeypair } from '../stellar/keypair.js';

export class SandboxTools {
  /** the lookalike issuer of `FAKE` payments (an asset with the right code and the wrong issuer) */
  private readonly fakeIssuer = NativeKeypair.random();
  /** wrong-asset trustlines, added one at a time: they share the issuer's sequence number */
  private trustTurn: Promise<void> = Promise.resolve();
  /** the lookalike issuer is this object's own random key, so only this object funds it: a flag, not a read */
  private fakeIssuerFunded = false;
  /** lookalike lines added by this process ("address/CODE:ISSUER") */
  private readonly trusted = new Set<string>();

  constructor(private readonly sandbox: SandboxLink, private readonly network: StellarNetwork) {}

  async prepareDestination(address: string, stellarAsset: string): Promise<void> {
    await this.sandbox.ensure(address, parseAssetKey(stellarAsset));
  }

  /** What a test payment of `code` sends to an intent requiring `required`. */
  assetFor(code: string, required: string): AssetRef {
    if (code === 'FAKE') return { code: required === 'XLM' ? 'USDC' : required, issuer: this.fakeIssuer.publicKey() };
    return this.network.assets[code as 'USDC' | 'EURC' | 'XLM'];
  }

  /**
   * Deposit accounts trust only their asset; a wrong-asset test payment needs a line too, which
   * the lookalike issuer sponsors. Not the treasury: its sequence numbers belong to the server
   * holding the pipeline lease, and a test payment runs on whichever server the request reached.
   * `signer` signs for the deposit account: its own key, or the treasury when it co-signs it.
   */
  async ensureDepositTrust(deposit: { address: string; signer: Keypair }, asset: AssetRef): Promise<void> {
    const turn = this.trustTurn.then(() => this.addDepositTrust(deposit, asset));
    this.trustTurn = turn.catch(() => undefined);
    return turn;
  }

  private async addDepositTrust(deposit: { address: string; signer: Keypair }, asset: AssetRef): Promise<void> {
    const line = `${deposit.address}/${asset.code}:${asset.issuer}`;
    if (asset.issuer === null || this.trusted.has(line)) return;
    // (over Stellar RPC an account's view holds the network's USDC and EURC lines only: the set above knows the others)
    const account = await this.network.loadAccount(deposit.address);
    if (account?.balances.some((b) => b.asset.code === asset.code && b.asset.issuer === asset.issuer)) return;
    // the sponsor pays the 0.5 XLM reserve of each line it sponsors (and its fee): 10 XLM at first, 1 more a line
    await this.sandbox.fund(asset.issuer, this.network.assets.XLM, this.fakeIssuerFunded ? 10_000_000n : 100_000_000n);
    this.fakeIssuerFunded = true;
    const sponsor = this.fakeIssuer;
    const view = await this.network.loadAccount(sponsor.publicKey());
    const tx = new TransactionBuilder(new Account(sponsor.publicKey(), view!.sequence.toString()), { fee: BASE_FEE, networkPassphrase: this.network.passphrase })
      .addOperation(Operation.beginSponsoringFutureReserves({ sponsoredId: deposit.address }))
      .addOperation(Operation.changeTrust({ asset: toSdkAsset(asset), source: deposit.address }))
      .addOperation(Operation.endSponsoringFutureReserves({ source: deposit.address }))
      .setTimeout(60).build();
    tx.sign(sponsor, deposit.signer);
    const out = await this.network.submitTransaction(tx.toXdr());
    if (!out.successful) throw new Error(`could not add the ${asset.code} trustline: ${JSON.stringify(out.resultCodes)}`);
    this.trusted.add(line);
  }

  /** A fresh payer funded by the faucet signs and submits a real payment. */
  async pay(destination: string, asset: AssetRef, amount: bigint, memo?: string) {
    const payer = NativeKeypair.random();
    await this.sandbox.fund(payer.publicKey(), this.network.assets.XLM, 100_000_000n);
    if (asset.issuer !== null) await this.sandbox.fund(payer.publicKey(), asset, amount);
    else await this.sandbox.fund(payer.publicKey(), this.network.assets.XLM, amount);
    const view = await this.network.loadAccount(payer.publicKey());
    const builder = new TransactionBuilder(new Account(payer.publicKey(), view!.sequence.toString()), { fee: BASE_FEE, networkPassphrase: this.network.passphrase })
      .addOperation(Operation.payment({ destination, asset: toSdkAsset(asset), amount: fromStroops(amount) }));
    if (memo) builder.addMemo(Memo.text(memo));
    const tx = builder.setTimeout(60).build();
    tx.sign(payer);
    const result = await this.network.submitTransaction(tx.toXdr());
    return { payer: payer.publicKey(), result };
  }
}

export { parseAssetKey };
