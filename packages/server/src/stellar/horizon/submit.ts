/**
 * POST /transactions. A rejected transaction is an outcome, not an exception (the interface
 * says so and the sandbox behaves so); only "we do not know what happened" throws: a 504 means
 * the envelope may still apply, so the caller must look it up or resubmit the SAME envelope.
 */
import { FeeBumpTransaction, Horizon, Transaction, TransactionBuilder } from '@stellar/stellar-sdk';
import type { AsyncSubmitResult, SubmitResult } from '../network.js';
import { resultCodesOf } from '../result-codes.js';
import { problemOf, toHorizonError } from './errors.js';

function parse(envelopeXdr: string, passphrase: string): Transaction | FeeBumpTransaction | null {
  try {
    return TransactionBuilder.fromXdr(envelopeXdr, passphrase);
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
  const hash = Buffer.from(tx.hash()).toString('hex');
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

/** Horizon's TransactionSubmissionResponse (the SDK's type names the XDR field in snake case). */
interface AsyncBody {
  tx_status?: string;
  hash?: string;
  errorResultXdr?: string;
  error_result_xdr?: string;
}

const ASYNC_STATUSES = new Set(['PENDING', 'DUPLICATE', 'TRY_AGAIN_LATER', 'ERROR']);

/** Horizon's spelling of the transaction's result code, or null for XDR it cannot decode. */
function resultCode(resultXdr: string): string | null {
  try {
    return resultCodesOf(resultXdr).transaction;
  } catch {
    return null;
  }
}

function asyncResult(hash: string, body: AsyncBody): AsyncSubmitResult {
  const status = body.tx_status as AsyncSubmitResult['status'];
  const errorResultXdr = body.errorResultXdr ?? body.error_result_xdr;
  const code = errorResultXdr ? resultCode(errorResultXdr) : null;
  return {
    status, hash: body.hash || hash,
    ...(errorResultXdr ? { errorResultXdr } : {}), ...(code ? { resultCodes: { transaction: code } } : {}),
  };
}

/**
 * POST /transactions_async: Horizon hands the envelope to stellar-core and answers at once
 * (201 PENDING, 409 DUPLICATE, 503 TRY_AGAIN_LATER, 400 ERROR, each with a tx_status body);
 * confirmation is a later lookup by hash. Only an answer without a tx_status throws.
 */
export async function submitEnvelopeAsync(deps: SubmitDeps, envelopeXdr: string): Promise<AsyncSubmitResult> {
  const tx = parse(envelopeXdr, deps.passphrase);
  if (!tx) return { status: 'ERROR', hash: '', resultCodes: { transaction: 'tx_malformed' } };
  const hash = Buffer.from(tx.hash()).toString('hex');
  try {
    return asyncResult(hash, await deps.server.submitAsyncTransaction(tx, { skipMemoRequiredCheck: true }) as AsyncBody);
  } catch (error) {
    const { status, problem } = problemOf(error);
    const body = problem as AsyncBody | null;
    if (body?.tx_status && ASYNC_STATUSES.has(body.tx_status)) return asyncResult(hash, body);
    if (status === 400 && problem?.type?.endsWith('transaction_malformed')) {
      return { status: 'ERROR', hash, resultCodes: { transaction: 'tx_malformed' } };
    }
    throw toHorizonError(error, 'async transaction submission');
  }
}
