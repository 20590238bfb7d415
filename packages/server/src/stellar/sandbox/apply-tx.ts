/**
 * Closes a ledger with one checked transaction: charges the fee and consumes the sequence number
 * for good, then applies the operations all-or-nothing (a savepoint), like stellar-core.
 */
import { FeeBumpTransaction, type Transaction, type xdr } from '@stellar/stellar-sdk';
import type { HorizonPaymentRecord, HorizonTransaction } from '../horizon-types.js';
import type { ResultCodes } from '../network.js';
import { insertRecord, insertTransaction } from './history.js';
import { applyOperation } from './operations/index.js';
import { baseAccount, succeeded, type OpContext, type OpOutcome } from './operations/context.js';
import { opNoSourceAccount, txCode, feeBumpResult, txResult } from './results-xdr.js';
import { operationId, paymentRecord } from './records.js';
import type { SandboxStore } from './store.js';
import { transactionResource } from './tx-resource.js';
import type { Checked } from './validate.js';

export interface Clock {
  ledger: number;
  closeTime: number;
  createdAt: string;
}

export interface Applied {
  hash: string;
  ledger: number;
  successful: boolean;
  codes: ResultCodes;
  resultXdr: string;
  resource: HorizonTransaction;
  records: HorizonPaymentRecord[];
}

const ROLLBACK = Symbol('rollback');

/** Runs fn in a savepoint that is rolled back unless fn returns true. */
export function savepoint(store: SandboxStore, fn: () => boolean): boolean {
  try {
    store.db.transaction(() => {
      if (!fn()) throw ROLLBACK;
    })();
    return true;
  } catch (err) {
    if (err === ROLLBACK) return false;
    throw err;
  }
}

function chargeFeeAndSeq(store: SandboxStore, c: Checked, clock: Clock): void {
  const payer = store.getAccount(c.feeAccount)!;
  store.putAccount({ ...payer, balance: payer.balance - c.feeCharged, lastModifiedLedger: clock.ledger });
  const src = store.getAccount(c.source)!;
  store.putAccount({
    ...src, seq: BigInt(c.inner.sequence), seqLedger: clock.ledger, seqTime: clock.closeTime,
    lastModifiedLedger: clock.ledger,
  });
}

/** Applies every operation (each in its own savepoint); returns outcomes and the tx code. */
function applyOperations(store: SandboxStore, tx: Transaction, source: string, clock: Clock) {
  const sponsoring = new Map<string, string>();
  const outcomes: OpOutcome[] = [];
  let name = 'txSuccess';
  savepoint(store, () => {
    for (const op of tx.operations) {
      const opSource = baseAccount(op.source ?? source);
      const ctx: OpContext = { store, ledger: clock.ledger, closeTime: clock.closeTime, source: opSource, sponsoring };
      let outcome: OpOutcome = { result: opNoSourceAccount() };
      if (store.getAccount(opSource)) savepoint(store, () => succeeded((outcome = applyOperation(op, ctx))));
      outcomes.push(outcome);
    }
    if (outcomes.some((o) => !succeeded(o))) name = 'txFailed';
    else if (sponsoring.size > 0) name = 'txBadSponsorship';
    return name === 'txSuccess';
  });
  return { outcomes, name };
}

function buildResult(env: Transaction | FeeBumpTransaction, fee: bigint, name: string, ops: xdr.OperationResult[]) {
  if (env instanceof FeeBumpTransaction) {
    return feeBumpResult(fee, env.innerTransaction.hash(), name, name === 'txBadSponsorship' ? [] : ops);
  }
  return txResult(fee, name, ops);
}

export function applyTransaction(
  store: SandboxStore, env: Transaction | FeeBumpTransaction, envelopeXdr: string, c: Checked, clock: Clock,
): Applied {
  chargeFeeAndSeq(store, c, clock);
  const { outcomes, name } = applyOperations(store, c.inner, c.source, clock);
  const successful = name === 'txSuccess';
  const result = buildResult(env, c.feeCharged, name, outcomes.map((o) => o.result.xdr));
  const hash = env.hash().toString('hex');
  const codes = resultCodes(env, name, outcomes);
  const resource = transactionResource({
    envelope: env, envelopeXdr, resultXdr: result.toXDR('base64'), ledger: clock.ledger,
    pagingToken: operationId(clock.ledger, 1, 0), successful, createdAt: clock.createdAt, feeCharged: c.feeCharged,
  });
  insertTransaction(store, resource);
  const records = c.inner.operations.flatMap((op, i) => {
    const base = { id: operationId(clock.ledger, 1, i + 1), txHash: hash, successful,
      source: baseAccount(op.source ?? c.source), createdAt: clock.createdAt };
    const record = paymentRecord(op, base, successful ? outcomes[i]! : null);
    return record ? [record] : [];
  });
  for (const r of records) insertRecord(store, r);
  return { hash, ledger: clock.ledger, successful, codes, resultXdr: resource.result_xdr, resource, records };
}

function resultCodes(env: Transaction | FeeBumpTransaction, name: string, outcomes: OpOutcome[]): ResultCodes {
  const operations = name === 'txBadSponsorship' ? undefined : outcomes.map((o) => o.result.code);
  const withOps = name === 'txSuccess' ? {} : operations ? { operations } : {};
  if (env instanceof FeeBumpTransaction) {
    const outer = name === 'txSuccess' ? 'tx_fee_bump_inner_success' : 'tx_fee_bump_inner_failed';
    return { transaction: outer, inner_transaction: txCode(name), ...withOps };
  }
  return { transaction: txCode(name), ...withOps };
}
