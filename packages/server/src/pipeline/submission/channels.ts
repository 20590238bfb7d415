/**
 * Channel accounts: each is the source (and fee payer) of one in-flight treasury transaction,
 * while the treasury is the source of the operations and co-signs. N channels put N of the
 * platform's transactions in one ledger instead of one (an account has one sequence number, and
 * stellar-core takes one pending transaction per source account).
 *
 * Their keys are derived from the treasury's secret (HMAC-SHA256 of its seed), so nothing new
 * is stored and a restart, or another process, finds the same channels.
 */
import { createHmac } from 'node:crypto';
import { Account, Keypair, Operation, TimeoutInfinite, TransactionBuilder, BASE_FEE } from '@stellar/stellar-sdk';
import type { StellarNetwork } from '../../stellar/index.js';
import { NativeKeypair } from '../../stellar/keypair.js';

/** XLM each channel starts with: its 1 XLM minimum balance plus fees for ~190,000 operations. */
export const CHANNEL_STARTING_XLM = '20';

export function channelKeypair(treasury: Keypair, index: number): Keypair {
  const seed = createHmac('sha256', treasury.rawSecretKey()).update(`fundkit channel ${index}`).digest();
  return NativeKeypair.fromRawEd25519Seed(seed);
}

export interface Channel {
  keypair: Keypair;
  /** The next transaction's sequence number is this + 1; null = reload from the network. */
  sequence: bigint | null;
}

export class ChannelPool {
  readonly channels: Channel[];
  private readonly free: Channel[];
  private readonly waiting: Array<{ address: string | undefined; resolve: (c: Channel) => void }> = [];
  private ready: Promise<void> | null = null;

  constructor(private readonly network: StellarNetwork, private readonly treasury: Keypair, count: number) {
    this.channels = Array.from({ length: count }, (_, i) => ({ keypair: channelKeypair(treasury, i), sequence: null }));
    this.free = [...this.channels];
  }

  /** Creates the channel accounts that are not on the network yet (once; one treasury transaction). */
  ensure(): Promise<void> {
    this.ready ??= this.create().catch((error: unknown) => {
      this.ready = null;
      throw error;
    });
    return this.ready;
  }

  private async create(): Promise<void> {
    const missing: Channel[] = [];
    for (const c of this.channels) if (!(await this.network.loadAccount(c.keypair.publicKey()))) missing.push(c);
    if (missing.length === 0) return;
    const view = await this.network.loadAccount(this.treasury.publicKey());
    if (!view) throw new Error('treasury account is missing on the network');
    const builder = new TransactionBuilder(new Account(view.id, view.sequence.toString()), {
      fee: String(Number(BASE_FEE) * missing.length), networkPassphrase: this.network.passphrase,
    });
    for (const c of missing) builder.addOperation(Operation.createAccount({ destination: c.keypair.publicKey(), startingBalance: CHANNEL_STARTING_XLM }));
    const tx = builder.setTimeout(TimeoutInfinite).build();
    tx.sign(this.treasury);
    const out = await this.network.submitTransaction(tx.toXdr());
    // Another process may have created them at the same time: what counts is that they exist.
    if (!out.successful) for (const c of missing) if (!(await this.network.loadAccount(c.keypair.publicKey()))) throw new Error(`could not create channel accounts: ${out.resultCodes?.transaction}`);
  }

  /** Waits for a free channel, or for the channel `address` when given (a stored envelope's). */
  lease(address?: string): Promise<Channel> {
    const i = address ? this.free.findIndex((c) => c.keypair.publicKey() === address) : 0;
    if (i >= 0 && this.free[i]) return Promise.resolve(this.free.splice(i, 1)[0]!);
    return new Promise((resolve) => this.waiting.push({ address, resolve }));
  }

  /** Channels with a transaction in flight (metrics). */
  get busy(): number {
    return this.channels.length - this.free.length;
  }

  isChannel(address: string): boolean {
    return this.channels.some((c) => c.keypair.publicKey() === address);
  }

  release(c: Channel): void {
    const i = this.waiting.findIndex((w) => !w.address || w.address === c.keypair.publicKey());
    if (i >= 0) this.waiting.splice(i, 1)[0]!.resolve(c);
    else this.free.push(c);
  }

  /** The sequence number for the channel's next transaction. */
  async nextSequence(c: Channel): Promise<bigint> {
    if (c.sequence === null) {
      const view = await this.network.loadAccount(c.keypair.publicKey());
      if (!view) throw new Error(`channel ${c.keypair.publicKey()} is missing on the network`);
      c.sequence = view.sequence;
    }
    return c.sequence;
  }
}
