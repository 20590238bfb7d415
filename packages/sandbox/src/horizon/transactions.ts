/** POST /transactions and GET /transactions/{hash}. */
import type { Request, Response } from 'express';
import type { SandboxLedger } from '../ledger.js';
import { transactionLinks } from '../tx-resource.js';
import { badRequest, baseUrl, notFound, sendHal, sendProblem } from './render.js';

const FAILED_DETAIL =
  'The transaction failed when submitted to the stellar network. The `extras.result_codes` field on this response contains further details.  Descriptions of each code can be found at: https://developers.stellar.org/api/errors/http-status-codes/horizon-specific/transaction-failed/';

const MALFORMED_DETAIL =
  'Horizon could not decode the transaction envelope in this request. A transaction should be an XDR TransactionEnvelope struct encoded using base64.  The envelope read from this request is echoed in the `extras.envelope_xdr` field of this response for your convenience.';

/** Horizon's answer when stellar-core asks to try again later (one pending transaction per account). */
export const SERVICE_UNAVAILABLE = {
  type: 'service_unavailable', title: 'Service Unavailable', status: 503,
  detail: 'The request cannot be fulfilled due to the current capacity of the server. Please try again later.',
};

function envelopeParam(req: Request, res: Response): string | undefined {
  const tx = (req.body as Record<string, unknown> | undefined)?.tx;
  if (typeof tx === 'string' && tx !== '') return tx;
  badRequest(res, 'tx', 'Any valid transaction envelope in base64');
  return undefined;
}

/** POST /transactions: answers when the transaction's ledger closed, as Horizon does. */
export function submitTransaction(ledger: SandboxLedger) {
  return async (req: Request, res: Response) => {
    const tx = envelopeParam(req, res);
    if (!tx) return;
    const out = await ledger.submitAndWait(tx);
    if (out.status === 'try_again_later') return sendProblem(res, SERVICE_UNAVAILABLE);
    if (out.status === 'malformed') {
      return sendProblem(res, { type: 'transaction_malformed', title: 'Transaction Malformed', status: 400,
        detail: MALFORMED_DETAIL, extras: { envelope_xdr: tx } });
    }
    if (out.status === 'applied' && out.successful) {
      return sendHal(res, transactionLinks(out.resource, baseUrl(req)));
    }
    // Go marshals the extras map with sorted keys.
    sendProblem(res, { type: 'transaction_failed', title: 'Transaction Failed', status: 400, detail: FAILED_DETAIL,
      extras: { envelope_xdr: out.envelopeXdr, result_codes: out.codes, result_xdr: out.resultXdr } });
  };
}

/** Horizon's status for each tx_status of POST /transactions_async. */
const ASYNC_STATUS = { PENDING: 201, DUPLICATE: 409, TRY_AGAIN_LATER: 503, ERROR: 400 } as const;

/** POST /transactions_async: admitted or refused at once; the ledger applies it at its close. */
export function submitTransactionAsync(ledger: SandboxLedger) {
  return async (req: Request, res: Response) => {
    const tx = envelopeParam(req, res);
    if (!tx) return;
    const out = await ledger.submitAsync(tx);
    const status = ASYNC_STATUS[out.status];
    // Horizon's TransactionSubmissionResponse, fields in its order (status repeats the HTTP status).
    const body = { ...(out.errorResultXdr ? { errorResultXdr: out.errorResultXdr } : {}), tx_status: out.status, status, hash: out.hash };
    res.status(status).set('Content-Type', 'application/json; charset=utf-8').send(JSON.stringify(body, null, 2));
  };
}

export function getTransaction(ledger: SandboxLedger) {
  return async (req: Request, res: Response) => {
    const t = await ledger.getTransaction(String(req.params.hash));
    if (!t) return notFound(res);
    sendHal(res, transactionLinks(t, baseUrl(req)));
  };
}
