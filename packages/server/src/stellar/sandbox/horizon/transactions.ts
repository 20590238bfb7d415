/** POST /transactions and GET /transactions/{hash}. */
import type { Request, Response } from 'express';
import type { SandboxLedger } from '../ledger.js';
import { transactionLinks } from '../tx-resource.js';
import { badRequest, baseUrl, notFound, sendHal, sendProblem } from './render.js';

const FAILED_DETAIL =
  'The transaction failed when submitted to the stellar network. The `extras.result_codes` field on this response contains further details.  Descriptions of each code can be found at: https://developers.stellar.org/api/errors/http-status-codes/horizon-specific/transaction-failed/';

const MALFORMED_DETAIL =
  'Horizon could not decode the transaction envelope in this request. A transaction should be an XDR TransactionEnvelope struct encoded using base64.  The envelope read from this request is echoed in the `extras.envelope_xdr` field of this response for your convenience.';

export function submitTransaction(ledger: SandboxLedger) {
  return (req: Request, res: Response) => {
    const tx = (req.body as Record<string, unknown> | undefined)?.tx;
    if (typeof tx !== 'string' || tx === '') return badRequest(res, 'tx', 'Any valid transaction envelope in base64');
    const out = ledger.submit(tx);
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

export function getTransaction(ledger: SandboxLedger) {
  return (req: Request, res: Response) => {
    const t = ledger.getTransaction(String(req.params.hash));
    if (!t) return notFound(res);
    sendHal(res, transactionLinks(t, baseUrl(req)));
  };
}
