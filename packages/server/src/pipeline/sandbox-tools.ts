/**
 * Sandbox-only conveniences: the faucet-funded payer of the test helpers, and destinations made
 * to exist (the embedded ledger has no outside world, so a merchant's settlement address is
 * materialised with a trustline the first time money is sent to it).
 */
import { Keypair, Operation, TransactionBuilder, BASE_FEE, Account, Memo } from '@stellar/stellar-sdk';
import { fromStroops } from '../lib/money.js';
import { parseAssetKey, SANDBOX_ASSETS, toSdkAsset, type AssetRef, type SandboxLedger, type SandboxNetwork } from '../stellar/index.js';
import { ensureAccount, ensureTrustline } from '../stellar/sandbox/faucet.js';
import { NativeKeypair } from '../stellar/keypair.js';

export class SandboxTools {
  /** the lookalike issuer of `FAKE` payments (an asset with the right code and the wrong issuer) */
  private readonly fakeIssuer = NativeKeypair.random();
  /** wrong-asset trustlines, added one at a time: they share the issuer's sequence number */
  private trustTurn: Promise<void> = Promise.resolve();

  constructor(private readonly ledger: SandboxLedger, private readonly network: SandboxNetwork) {}

  async prepareDestination(address: string, stellarAsset: string): Promise<void> {
    const { store } = this.ledger;
    if (await store.getAccount(address) && (stellarAsset === 'native' || await store.getTrustline(address, stellarAsset))) return;
    await this.ledger.directWrite(async (clock) => {
      await ensureAccount(store, clock, address, 10_000_000n);
      if (stellarAsset !== 'native') await ensureTrustline(store, clock, address, stellarAsset);
    });
  }

  /** What a test payment of `code` sends to an intent requiring `required`. */
  assetFor(code: string, required: string): AssetRef {
    if (code === 'FAKE') return { code: required === 'XLM' ? 'USDC' : required, issuer: this.fakeIssuer.publicKey() };
    return SANDBOX_ASSETS[code as 'USDC' | 'EURC' | 'XLM'];
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
    if (asset.issuer === null || await this.ledger.store.getTrustline(deposit.address, `${asset.code}:${asset.issuer}`)) return;
    // the faucet gives the sponsor the 0.5 XLM reserve of each line it sponsors (and its fee)
    await this.ledger.fund(asset.issuer, SANDBOX_ASSETS.XLM, await this.ledger.store.getAccount(asset.issuer) ? 10_000_000n : 100_000_000n);
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
  }

  /** A fresh payer funded by the faucet signs and submits a real payment. */
  async pay(destination: string, asset: AssetRef, amount: bigint, memo?: string) {
    const payer = NativeKeypair.random();
    await this.ledger.fund(payer.publicKey(), SANDBOX_ASSETS.XLM, 100_000_000n);
    if (asset.issuer !== null) await this.ledger.fund(payer.publicKey(), asset, amount);
    else await this.ledger.fund(payer.publicKey(), SANDBOX_ASSETS.XLM, amount);
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
