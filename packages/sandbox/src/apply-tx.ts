/**
 * Closes a ledger with one checked transaction: charges the fee and consumes the sequence number
 * for good, then applies the operations all-or-nothing (a savepoint), like stellar-core.
 */
import { txHash } from './tx-hash.js';
import { FeeBumpTransaction, type Transaction, type xdr } from '@stellar/stellar-sdk';
import type { HorizonOperationRecord, HorizonPaymentRecord, HorizonTransaction } from './shared/horizon-types.js';
import type { ResultCodes } from './shared/types.js';
import { operationEffects } from './effects.js';
import { insertEffects, insertOperation, insertTransaction } from './history.js';
import { countTransaction } from './ledgers.js';
import { applyOperation } from './operations/index.js';
import { baseAccount, succeeded, type OpContext, type OpOutcome } from './operations/context.js';
import { opNoSourceAccount, txCode, feeBumpResult, txResult } from './results-xdr.js';
import { isPayment, operationId, operationRecord, participants } from './records.js';
import type { SandboxStore } from './store.js';
import { transactionResource } from './tx-resource.js';
import { saveInvocations } from './sac/meta-store.js';
import type { Checked } from './validate.js';

export interface Clock {
  ledger: number;
  closeTime: number;
  createdAt: string;
  /** The transaction's 1-based position in its ledger (part of every paging token). */
  txOrder?: number;
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
export async function savepoint(store: SandboxStore, fn: () => Promise<boolean>): Promise<boolean> {
  try {
    await store.sql.transaction(async () => {
      if (!(await fn())) throw ROLLBACK;
    });
    return true;
  } catch (err) {
    if (err === ROLLBACK) return false;
    throw err;
  }
}

async function chargeFeeAndSeq(store: SandboxStore, c: Checked, clock: Clock): Promise<void> {
  const payer = (await store.getAccount(c.feeAccount))!;
  await store.putAccount({ ...payer, balance: payer.balance - c.feeCharged, lastModifiedLedger: clock.ledger });
  const src = (await store.getAccount(c.source))!;
  await store.putAccount({
    ...src, seq: BigInt(c.inner.sequence), seqLedger: clock.ledger, seqTime: clock.closeTime,
    lastModifiedLedger: clock.ledger,
  });
}

/** Applies every operation (each in its own savepoint); returns outcomes and the tx code. */
async function applyOperations(store: SandboxStore, tx: Transaction, source: string, clock: Clock, c: Checked) {
  const soroban = c.sorobanData ? { passphrase: tx.networkPassphrase, resources: c.sorobanData.resources } : undefined;
  const sponsoring = new Map<string, string>();
  const outcomes: OpOutcome[] = [];
  let name = 'txSuccess';
  await savepoint(store, async () => {
    for (const op of tx.operations) {
      const opSource = baseAccount(op.source ?? source);
      const ctx: OpContext = { store, ledger: clock.ledger, closeTime: clock.closeTime, source: opSource, sponsoring, ...(soroban ? { soroban } : {}) };
      let outcome: OpOutcome = { result: opNoSourceAccount() };
      if (await store.getAccount(opSource)) await savepoint(store, async () => succeeded((outcome = await applyOperation(op, ctx))));
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
    return feeBumpResult(fee, txHash(env.innerTransaction), name, name === 'txBadSponsorship' ? [] : ops);
  }
  return txResult(fee, name, ops);
}

export async function applyTransaction(
  store: SandboxStore, env: Transaction | FeeBumpTransaction, envelopeXdr: string, c: Checked, clock: Clock,
): Promise<Applied> {
  await chargeFeeAndSeq(store, c, clock);
  const { outcomes, name } = await applyOperations(store, c.inner, c.source, clock, c);
  const successful = name === 'txSuccess';
  const result = buildResult(env, c.feeCharged, name, outcomes.map((o) => o.result.xdr));
  const hash = txHash(env).toString('hex');
  if (successful) await saveInvocations(store, hash, outcomes);
  const codes = resultCodes(env, name, outcomes);
  const order = clock.txOrder ?? 1;
  const resource = transactionResource({
    envelope: env, envelopeXdr, resultXdr: result.toXdr('base64'), ledger: clock.ledger,
    pagingToken: operationId(clock.ledger, order, 0), successful, createdAt: clock.createdAt, feeCharged: c.feeCharged,
  });
  const records = operationRecords(c, { hash, successful, clock, order }, outcomes);
  const accounts = new Set([c.source, c.feeAccount, ...records.flatMap(participants)]);
  await insertTransaction(store, resource, accounts);
  for (const [i, r] of records.entries()) {
    await insertOperation(store, r);
    if (successful) await insertEffects(store, BigInt(r.id), hash, clock.createdAt, operationEffects(r, outcomes[i]!));
  }
  await countTransaction(store, clock.ledger, successful, records.length, c.feeCharged);
  const payments = records.filter(isPayment);
  return { hash, ledger: clock.ledger, successful, codes, resultXdr: resource.result_xdr, resource, records: payments };
}

interface TxFacts {
  hash: string;
  successful: boolean;
  clock: Clock;
  order: number;
}

/** One record per operation; an end_sponsoring names the begin_sponsoring it closes. */
function operationRecords(c: Checked, t: TxFacts, outcomes: OpOutcome[]): HorizonOperationRecord[] {
  const sponsorOf = new Map<string, string>();
  return c.inner.operations.map((op, i) => {
    const source = baseAccount(op.source ?? c.source);
    const base = { id: operationId(t.clock.ledger, t.order, i + 1), txHash: t.hash, successful: t.successful,
      source, createdAt: t.clock.createdAt };
    if (op.type === 'beginSponsoringFutureReserves') sponsorOf.set(op.sponsoredId, source);
    return operationRecord(op, base, t.successful ? outcomes[i]! : null, sponsorOf.get(source));
  });
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
