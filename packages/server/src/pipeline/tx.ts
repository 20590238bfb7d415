/**
 * Treasury-sourced transactions. The treasury is the source (and fee payer) of every transaction
 * the platform signs, so they go one at a time (one sequence number in flight). Envelopes are
 * stored BEFORE submission: after a crash the stored envelope is looked up by hash and either
 * found (it applied) or resubmitted; only a tx_bad_seq (its sequence was consumed by another
 * transaction, so it can never apply) lets us build a fresh one.
 */
import { Account, BASE_FEE, Keypair, TimeoutInfinite, TransactionBuilder, type Memo, type xdr } from '@stellar/stellar-sdk';
import type { StellarNetwork, SubmitResult } from '../stellar/index.js';

export interface TxOutcome {
  hash: string;
  /** the transaction is in a closed ledger (successful or not) */
  applied: boolean;
  successful: boolean;
  ledger: number | null;
  /** e.g. "tx_failed: op_underfunded" */
  code: string | null;
}

export interface BuildSpec {
  operations: xdr.Operation[];
  /** signers besides the treasury (deposit accounts whose operations are included) */
  signers?: Keypair[];
  memo?: Memo;
}

function codeOf(result: SubmitResult): string | null {
  const codes = result.resultCodes;
  if (!codes) return null;
  return [codes.transaction, ...(codes.operations ?? []).filter((c) => c !== 'op_success')].join(': ');
}

export function envelopeHash(envelopeXdr: string, passphrase: string): string {
  return TransactionBuilder.fromXDR(envelopeXdr, passphrase).hash().toString('hex');
}

export class TreasurySigner {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly network: StellarNetwork, readonly treasury: Keypair) {}

  /** Runs fn after every earlier treasury transaction finished. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async build(spec: BuildSpec): Promise<string> {
    const view = await this.network.loadAccount(this.treasury.publicKey());
    if (!view) throw new Error('treasury account is missing on the network');
    const builder = new TransactionBuilder(new Account(view.id, view.sequence.toString()), {
      fee: String(Number(BASE_FEE) * Math.max(1, spec.operations.length)),
      networkPassphrase: this.network.passphrase,
    });
    for (const op of spec.operations) builder.addOperation(op);
    if (spec.memo) builder.addMemo(spec.memo);
    // no time bound: a stored envelope must stay submittable across a restart
    const tx = builder.setTimeout(TimeoutInfinite).build();
    tx.sign(this.treasury, ...(spec.signers ?? []));
    return tx.toXDR();
  }

  private async find(envelopeXdr: string): Promise<TxOutcome | null> {
    const hash = envelopeHash(envelopeXdr, this.network.passphrase);
    const found = await this.network.getTransaction(hash);
    if (!found) return null;
    return { hash, applied: true, successful: found.successful, ledger: found.ledger, code: found.successful ? null : 'tx_failed' };
  }

  private async submit(envelopeXdr: string): Promise<TxOutcome> {
    const result = await this.network.submitTransaction(envelopeXdr);
    return { hash: result.hash, applied: result.ledger !== null, successful: result.successful, ledger: result.ledger, code: codeOf(result) };
  }

  /**
   * Submits `stored` (or a freshly built envelope, handed to `save` before submission) and
   * reports the outcome. Network errors propagate: the caller's worker retries with backoff.
   */
  run(stored: string | null, spec: () => BuildSpec, save: (envelopeXdr: string) => void): Promise<TxOutcome> {
    return this.exclusive(async () => {
      if (stored) {
        const found = await this.find(stored);
        if (found) return found;
        const out = await this.submit(stored);
        if (!out.code?.startsWith('tx_bad_seq')) return out;
      }
      const envelope = await this.build(spec());
      save(envelope);
      return this.submit(envelope);
    });
  }
}
