/**
 * `fundkit treasury --fund`: the friendbot funds the treasury (creating its account), the treasury
 * adds its missing trustlines (a transaction it signs), then creates its channel accounts as the
 * server would (ChannelPool.ensure: a createAccount of CHANNEL_STARTING_XLM each, paid by the
 * treasury, so they need no friendbot of their own).
 */
import { Account, BASE_FEE, Operation, TimeoutInfinite, TransactionBuilder, type Keypair } from '@stellar/stellar-sdk';
import { ChannelPool } from '../pipeline/submission/channels.js';
import { toSdkAsset, type StellarNetwork } from '../stellar/index.js';
import { TRUSTED_ASSETS, trustline, xlm, type Assessment } from './assess.js';


export interface FundDeps {
  network: StellarNetwork;
  treasury: Keypair;
  /** GET <url>?addr=G… funds an account (Stellar's friendbot protocol) */
  friendbotUrl: string;
  channels: number;
  /** a line of progress for the operator */
  say: (line: string) => void;
}

export class FundError extends Error {}

/** Asks the friendbot for XLM when the treasury lacks some, adds the trustlines, creates the channels. */
export async function fundTreasury(deps: FundDeps, before: Assessment): Promise<void> {
  const address = deps.treasury.publicKey();
  if (!before.state.account || before.shortfall > 0n) {
    const response = await fetch(`${deps.friendbotUrl.replace(/\/+$/, '')}?addr=${encodeURIComponent(address)}`);
    const body = await response.text();
    // testnet's friendbot refuses an account already holding its grant: the report says what remains
    if (!response.ok && !/already funded/i.test(body)) throw new FundError(`the friendbot at ${deps.friendbotUrl} refused to fund ${address}: ${response.status} ${body.slice(0, 300)}`);
    const after = await deps.network.loadAccount(address);
    deps.say(response.ok ? `funded ${address} from the friendbot: now ${xlm(after?.balances.find((b) => b.asset.issuer === null)?.balance ?? 0n)} XLM` : `the friendbot gives no more to ${address} (already funded)`);
  }
  const account = await deps.network.loadAccount(address);
  if (!account) throw new FundError(`${address} still does not exist on the network after the friendbot`);
  const missing = TRUSTED_ASSETS.filter((code) => !trustline(account, deps.network.assets[code]));
  if (missing.length > 0) {
    const builder = new TransactionBuilder(new Account(address, account.sequence.toString()), {
      fee: String(Number(BASE_FEE) * missing.length), networkPassphrase: deps.network.passphrase,
    });
    for (const code of missing) builder.addOperation(Operation.changeTrust({ asset: toSdkAsset(deps.network.assets[code]) }));
    const tx = builder.setTimeout(TimeoutInfinite).build();
    tx.sign(deps.treasury);
    const out = await deps.network.submitTransaction(tx.toXDR());
    if (!out.successful) throw new FundError(`could not add the trustlines (${missing.join(', ')}): ${JSON.stringify(out.resultCodes ?? {})}`);
    deps.say(`added trustlines to ${missing.map((c) => `${c} (${deps.network.assets[c].issuer})`).join(', ')} [${out.hash}]`);
  }
  if (deps.channels > 0) {
    const pool = new ChannelPool(deps.network, deps.treasury, deps.channels);
    const existed = await countExisting(deps.network, pool);
    try {
      await pool.ensure();
    } catch (error) {
      throw new FundError(`could not create the channel accounts: ${(error as Error).message}`);
    }
    if (existed < deps.channels) deps.say(`created ${deps.channels - existed} channel account(s) from the treasury`);
  }
}

async function countExisting(network: StellarNetwork, pool: ChannelPool): Promise<number> {
  let n = 0;
  for (const c of pool.channels) if (await network.loadAccount(c.keypair.publicKey())) n++;
  return n;
}

