/**
 * POST /transactions. A rejected transaction is an outcome, not an exception (the interface
 * says so and the sandbox behaves so); only "we do not know what happened" throws: a 504 means
 * the envelope may still apply, so the caller must look it up or resubmit the SAME envelope.
 */
import { FeeBumpTransaction, Horizon, Transaction, TransactionBuilder } from '@stellar/stellar-sdk';
import type { SubmitResult } from '../network.js';
import { problemOf, toHorizonError } from './errors.js';

function parse(envelopeXdr: string, passphrase: string): Transaction | FeeBumpTransaction | null {
  try {
    return TransactionBuilder.fromXDR(envelopeXdr, passphrase);
  } catch {
    return null;
  }
}

/** Codes whose transaction went into a ledger (fee and sequence consumed) although it failed. */
const IN_LEDGER = new Set(['tx_failed', 'tx_fee_bump_inner_failed']);

export interface SubmitDeps {
  server: Horizon.Server;
  passphrase: string;
  /** Looks up the ledger of a transaction that failed in a ledger (the 400 body does not say). */
  ledgerOf: (hash: string) => Promise<number | null>;
}

export async function submitEnvelope(deps: SubmitDeps, envelopeXdr: string): Promise<SubmitResult> {
  const tx = parse(envelopeXdr, deps.passphrase);
  if (!tx) return { hash: '', ledger: null, successful: false, resultCodes: { transaction: 'tx_malformed' } };
  const hash = tx.hash().toString('hex');
  try {
    // the pipeline builds its own payments: SEP-29 lookups of every destination add nothing
    const ok = await deps.server.submitTransaction(tx, { skipMemoRequiredCheck: true });
    return { hash: ok.hash, ledger: ok.ledger, successful: true, resultXdr: ok.result_xdr };
  } catch (error) {
    return rejected(deps, hash, error);
  }
}

async function rejected(deps: SubmitDeps, hash: string, error: unknown): Promise<SubmitResult> {
  const { status, problem } = problemOf(error);
  const type = problem?.type?.split('/').pop();
  if (status === 400 && type === 'transaction_malformed') {
    return { hash, ledger: null, successful: false, resultCodes: { transaction: 'tx_malformed' } };
  }
  const codes = problem?.extras?.result_codes;
  if (status !== 400 || type !== 'transaction_failed' || !codes) throw toHorizonError(error, 'transaction submission');
  const ledger = IN_LEDGER.has(codes.transaction) ? await deps.ledgerOf(hash) : null;
  const resultXdr = problem?.extras?.result_xdr;
  return { hash, ledger, successful: false, resultCodes: codes, ...(resultXdr ? { resultXdr } : {}) };
}
