/** The Horizon transaction resource (fixtures/horizon/transaction*.json), keys in Horizon's order. */
import { txHash } from './tx-hash.js';
import { FeeBumpTransaction, type Memo, type Transaction } from '@stellar/stellar-sdk';
import type { HorizonTransaction } from './shared/horizon-types.js';

export interface TxFacts {
  envelope: Transaction | FeeBumpTransaction;
  envelopeXdr: string;
  resultXdr: string;
  ledger: number;
  pagingToken: bigint;
  successful: boolean;
  createdAt: string;
  feeCharged: bigint;
}

// An empty LedgerEntryChanges: the sandbox keeps no ledger-entry meta, but the field is valid XDR.
const EMPTY_CHANGES_XDR = 'AAAAAA==';

function memoFields(memo: Memo): Pick<HorizonTransaction, 'memo' | 'memo_bytes' | 'memo_type'> {
  const value = memo.value;
  switch (memo.type) {
    case 'text': {
      // a parsed text memo is its raw bytes (a Uint8Array since SDK 17, not a Buffer), a built one may be a string
      const bytes = value instanceof Uint8Array ? Buffer.from(value) : Buffer.from(String(value), 'utf8');
      return { memo: bytes.toString('utf8'), memo_bytes: bytes.toString('base64'), memo_type: 'text' };
    }
    case 'id':
      return { memo: String(value), memo_type: 'id' };
    case 'hash':
    case 'return':
      return { memo: Buffer.from(value as Uint8Array).toString('base64'), memo_type: memo.type };
    default:
      return { memo_type: 'none' };
  }
}

function isoSeconds(unix: string): string {
  return new Date(Number(unix) * 1000).toISOString().replace('.000Z', 'Z');
}

function timeFields(tx: Transaction): Partial<HorizonTransaction> {
  const tb = tx.timeBounds;
  if (!tb) return {};
  const max = tb.maxTime !== '0' ? { max_time: tb.maxTime } : {};
  return {
    valid_after: isoSeconds(tb.minTime),
    ...(tb.maxTime !== '0' ? { valid_before: isoSeconds(tb.maxTime) } : {}),
    preconditions: { timebounds: { min_time: tb.minTime, ...max } },
  };
}

const sigs = (tx: Transaction | FeeBumpTransaction) => tx.signatures.map((s) => Buffer.from(s.signature.toBytes()).toString('base64'));

export function transactionResource(f: TxFacts): HorizonTransaction {
  const outer = f.envelope;
  const inner = outer instanceof FeeBumpTransaction ? outer.innerTransaction : outer;
  const hash = txHash(outer).toString('hex');
  const { memo_type, ...memo } = memoFields(inner.memo);
  const bump = outer instanceof FeeBumpTransaction
    ? {
        fee_bump_transaction: { hash, signatures: sigs(outer) },
        inner_transaction: { hash: txHash(inner).toString('hex'), signatures: sigs(inner), max_fee: inner.fee },
      }
    : {};
  return {
    ...memo,
    id: hash,
    paging_token: f.pagingToken.toString(),
    successful: f.successful,
    hash,
    ledger: f.ledger,
    created_at: f.createdAt,
    source_account: inner.source,
    source_account_sequence: inner.sequence,
    fee_account: outer instanceof FeeBumpTransaction ? outer.feeSource : inner.source,
    fee_charged: f.feeCharged.toString(),
    max_fee: outer.fee,
    operation_count: inner.operations.length,
    envelope_xdr: f.envelopeXdr,
    result_xdr: f.resultXdr,
    fee_meta_xdr: EMPTY_CHANGES_XDR,
    memo_type,
    signatures: sigs(outer),
    ...timeFields(inner),
    ...bump,
  };
}

export function transactionLinks(t: HorizonTransaction, base: string): HorizonTransaction {
  const { _links: _, memo, memo_bytes, ...rest } = t;
  const memoPart = { ...(memo !== undefined ? { memo } : {}), ...(memo_bytes !== undefined ? { memo_bytes } : {}) };
  return {
    ...memoPart,
    _links: {
      self: { href: `${base}/transactions/${t.hash}` },
      account: { href: `${base}/accounts/${t.source_account}` },
      ledger: { href: `${base}/ledgers/${t.ledger}` },
      operations: { href: `${base}/transactions/${t.hash}/operations{?cursor,limit,order}`, templated: true },
      effects: { href: `${base}/transactions/${t.hash}/effects{?cursor,limit,order}`, templated: true },
      precedes: { href: `${base}/transactions?order=asc&cursor=${t.paging_token}` },
      succeeds: { href: `${base}/transactions?order=desc&cursor=${t.paging_token}` },
      transaction: { href: `${base}/transactions/${t.hash}` },
    },
    ...rest,
  } as HorizonTransaction;
}
