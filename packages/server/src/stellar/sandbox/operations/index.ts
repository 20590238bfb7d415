import { xdr, type Operation } from '@stellar/stellar-sdk';
import { accountMerge } from './account-merge.js';
import { changeTrust } from './change-trust.js';
import type { OpContext, OpOutcome } from './context.js';
import { createAccount } from './create-account.js';
import { pathPaymentStrictReceive, pathPaymentStrictSend } from './path-payment.js';
import { payment } from './payment.js';
import { beginSponsoring, endSponsoring } from './sponsorship.js';

/** Applies one operation to the store; unsupported types fail with op_not_supported. */
export function applyOperation(op: Operation, ctx: OpContext): OpOutcome {
  switch (op.type) {
    case 'createAccount': return createAccount(op, ctx);
    case 'payment': return payment(op, ctx);
    case 'pathPaymentStrictReceive': return pathPaymentStrictReceive(op, ctx);
    case 'pathPaymentStrictSend': return pathPaymentStrictSend(op, ctx);
    case 'changeTrust': return changeTrust(op, ctx);
    case 'accountMerge': return accountMerge(op, ctx);
    case 'beginSponsoringFutureReserves': return beginSponsoring(op, ctx);
    case 'endSponsoringFutureReserves': return endSponsoring(op, ctx);
    default:
      return { result: { code: 'op_not_supported', xdr: xdr.OperationResult.opNotSupported() } };
  }
}
