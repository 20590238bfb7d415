/**
 * Horizon's history collections — transactions, operations, payments, effects, ledgers — each
 * optionally scoped to an account, a ledger, a transaction or an operation, as Horizon nests them.
 */
import type { HorizonEffect, HorizonLedger, HorizonOperationRecord, HorizonTransaction } from '../shared/horizon-types.js';
import type { EffectCursor, HistoryFilter } from '../history.js';
import type { SandboxLedger } from '../ledger.js';
import { withLinks } from '../records.js';
import { transactionLinks } from '../tx-resource.js';
import type { Collection, ListParams } from './collection.js';

export type HistoryKind = 'transactions' | 'operations' | 'payments' | 'effects';

export interface Scope extends HistoryFilter {
  operation?: bigint;
}

const TOKEN = /^\d{1,19}$/;
const EFFECT_TOKEN = /^\d{1,19}(-\d{1,10})?$/;

const page = (p: ListParams) => ({ limit: p.limit, order: p.order });
const numeric = (p: ListParams) => ({ ...page(p), ...(p.cursor !== '' ? { cursor: BigInt(p.cursor) } : {}) });

/** "opid-order", or a bare operation token, which Horizon reads as order 0 of that operation. */
function effectCursor(p: ListParams): { cursor?: EffectCursor } {
  if (p.cursor === '') return {};
  const [op = '0', order = '0'] = p.cursor.split('-');
  return { cursor: [BigInt(op), Number(order)] };
}

export function effectLinks(e: HorizonEffect, base: string): HorizonEffect {
  const { _links: _, ...rest } = e;
  const opId = e.paging_token.split('-')[0];
  return {
    _links: {
      operation: { href: `${base}/operations/${opId}` },
      succeeds: { href: `${base}/effects?order=desc&cursor=${e.paging_token}` },
      precedes: { href: `${base}/effects?order=asc&cursor=${e.paging_token}` },
    },
    ...rest,
  };
}

export function ledgerLinks(l: HorizonLedger, base: string): HorizonLedger {
  const { _links: _, ...rest } = l;
  const list = (name: string) => ({ href: `${base}/ledgers/${l.sequence}/${name}{?cursor,limit,order}`, templated: true });
  return {
    _links: {
      self: { href: `${base}/ledgers/${l.sequence}` },
      transactions: list('transactions'),
      operations: list('operations'),
      payments: list('payments'),
      effects: list('effects'),
    },
    ...rest,
  };
}

/** The record with links and, with join=transactions, its transaction after transaction_hash. */
async function renderOperation(ledger: SandboxLedger, r: HorizonOperationRecord, base: string, join: boolean): Promise<unknown> {
  const linked = withLinks(r, base);
  if (!join) return linked;
  const tx = await ledger.getTransaction(r.transaction_hash);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(linked)) {
    out[k] = v;
    if (k === 'transaction_hash' && tx) out.transaction = transactionLinks(tx, base);
  }
  return out;
}

function transactions(ledger: SandboxLedger, scope: Scope): Collection<HorizonTransaction> {
  return {
    cursor: TOKEN, now: async () => (await ledger.nowToken()).toString(), failed: true,
    fetch: (p) => ledger.listTransactions({ ...scope, includeFailed: p.includeFailed || scope.includeFailed === true }, numeric(p)),
    render: (t, base) => transactionLinks(t, base),
  };
}

function operations(ledger: SandboxLedger, scope: Scope, paymentsOnly: boolean): Collection<HorizonOperationRecord> {
  return {
    cursor: TOKEN, now: async () => (await ledger.nowToken()).toString(), failed: true, joinable: true,
    fetch: (p) => ledger.listOperations(
      { ...scope, paymentsOnly, includeFailed: p.includeFailed || scope.includeFailed === true }, numeric(p)),
    render: (r, base, p) => renderOperation(ledger, r, base, p.join),
  };
}

function effects(ledger: SandboxLedger, scope: Scope): Collection<HorizonEffect> {
  return {
    cursor: EFFECT_TOKEN, now: async () => `${await ledger.nowToken()}-0`,
    fetch: (p) => ledger.listEffects(scope, { ...page(p), ...effectCursor(p) }),
    render: (e, base) => effectLinks(e, base),
  };
}

export function historyCollection(
  ledger: SandboxLedger, kind: HistoryKind, scope: Scope,
): Collection<HorizonTransaction> | Collection<HorizonOperationRecord> | Collection<HorizonEffect> {
  switch (kind) {
    case 'transactions': return transactions(ledger, scope);
    case 'operations': return operations(ledger, scope, false);
    case 'payments': return operations(ledger, scope, true);
    case 'effects': return effects(ledger, scope);
  }
}

export function ledgersCollection(ledger: SandboxLedger): Collection<HorizonLedger> {
  return {
    cursor: TOKEN, now: async () => (BigInt(await ledger.ledgerSequence()) << 32n).toString(),
    fetch: (p) => ledger.listLedgers(numeric(p)),
    render: (l, base) => ledgerLinks(l, base),
  };
}
