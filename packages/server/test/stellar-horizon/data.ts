/** Test records: the docs page's real testnet payments of one account, each with a joined transaction. */
import type { HorizonPaymentRecord, HorizonTransaction } from '../../src/stellar/index.js';
import { fixture } from './horizon-mock.js';

const page = fixture('account-payments-page-docs.json');
export const ACCOUNT: string = 'GCNL55IJTH2HX26HLNIGYD2JIQLTBAQL3SVPNZA6PXK7NAVHU423WOTE';

/** transaction.json re-keyed to the record's hash and ledger (the docs page has no join). */
function joinedTransaction(r: HorizonPaymentRecord): HorizonTransaction {
  const tx = fixture<HorizonTransaction>('transaction.json');
  return { ...tx, hash: r.transaction_hash, id: r.transaction_hash, ledger: Number(BigInt(r.paging_token) >> 32n) };
}

export const RECORDS: HorizonPaymentRecord[] = (page._embedded.records as HorizonPaymentRecord[]).map((r) => ({
  ...r, transaction: joinedTransaction(r),
}));

/** The real failed strict-receive record, moved into this account's history between RECORDS[3] and [4]. */
export function failedRecord(): HorizonPaymentRecord {
  const failed = fixture<HorizonPaymentRecord>('payment-op-path_payment_strict_receive.json');
  const token = (BigInt(RECORDS[3]!.paging_token) + 1n).toString();
  return { ...failed, id: token, paging_token: token, to: ACCOUNT } as HorizonPaymentRecord;
}
