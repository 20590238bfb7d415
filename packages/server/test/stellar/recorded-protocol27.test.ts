/**
 * Real pubnet responses recorded on protocol 27 (2026-08-04: see test/fixtures/rpc/SOURCES.md),
 * decoded with @stellar/stellar-sdk 17: Stellar RPC getTransactions and getLedgers, Horizon
 * /transactions and /ledgers. Every hash is recomputed from the decoded bytes, so a decoder that
 * reads or re-encodes one byte differently fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hash, Networks, TransactionBuilder, xdr } from '@stellar/stellar-sdk';

interface Corpus<T> { source: string; fetchedAt: string; records: T[] }
const load = <T>(path: string): Corpus<T> =>
  JSON.parse(readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8')) as Corpus<T>;

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const txHash = (envelopeXdr: string) => hex(TransactionBuilder.fromXdr(envelopeXdr, Networks.PUBLIC).hash());

/** The transaction result's code, looking through a fee-bump to its inner transaction. */
function resultCode(resultXdr: string): string {
  const result = xdr.TransactionResult.fromXdr(resultXdr, 'base64').result;
  return result.type === 'txFeeBumpInnerSuccess' || result.type === 'txFeeBumpInnerFailed'
    ? result.innerResultPair.result.result.type : result.type;
}

describe('recorded protocol-27 Stellar RPC responses', () => {
  it('getTransactions: envelopes hash to their txHash, results succeed, meta is TransactionMeta v4', () => {
    const rpc = load<{ txHash: string; envelopeXdr: string; resultXdr: string; resultMetaXdr: string }>('rpc/transactions.json');
    expect(rpc.records).toHaveLength(50);
    for (const r of rpc.records) {
      expect(txHash(r.envelopeXdr)).toBe(r.txHash);
      // the corpus was fetched with status=SUCCESS
      expect(resultCode(r.resultXdr)).toBe('txSuccess');
      const meta = xdr.TransactionMeta.fromXdr(r.resultMetaXdr, 'base64');
      expect(meta.type).toBe('v4');
      expect(meta.toXdr('base64')).toBe(r.resultMetaXdr);
    }
  });

  it('getLedgers: each header history entry carries its header\'s hash, on protocol 27, chained', () => {
    const rpc = load<{ sequence: number; headerXdr: string }>('rpc/ledgers.json');
    expect(rpc.records).toHaveLength(50);
    let previous: string | null = null;
    for (const r of rpc.records) {
      const entry = xdr.LedgerHeaderHistoryEntry.fromXdr(r.headerXdr, 'base64');
      expect(entry.header.ledgerSeq).toBe(r.sequence);
      expect(entry.header.ledgerVersion).toBe(27);
      expect(hex(entry.hash.toBytes())).toBe(hex(hash(entry.header.toXdr())));
      if (previous) expect(hex(entry.header.previousLedgerHash.toBytes())).toBe(previous);
      previous = hex(entry.hash.toBytes());
    }
  });
});

describe('recorded protocol-27 Horizon responses', () => {
  it('/transactions: envelopes hash to their hash; results and fee meta decode and re-encode', () => {
    const horizon = load<{ hash: string; envelope_xdr: string; result_xdr: string; fee_meta_xdr: string }>('horizon-current/transactions.json');
    expect(horizon.records).toHaveLength(50);
    for (const r of horizon.records) {
      expect(txHash(r.envelope_xdr)).toBe(r.hash);
      // fetched with include_failed=false
      expect(resultCode(r.result_xdr)).toBe('txSuccess');
      const changes = xdr.decodeArray(xdr.LedgerEntryChange, r.fee_meta_xdr, 'base64');
      expect(changes.length).toBeGreaterThan(0);
      expect(xdr.encodeArray(xdr.LedgerEntryChange, changes, 'base64')).toBe(r.fee_meta_xdr);
    }
  });

  it('/ledgers: headers are protocol 27 and chain by hash (newest first)', () => {
    const horizon = load<{ sequence: number; header_xdr: string }>('horizon-current/ledgers.json');
    expect(horizon.records).toHaveLength(50);
    const headers = horizon.records.map((r) => {
      const header = xdr.LedgerHeader.fromXdr(r.header_xdr, 'base64');
      expect(header.ledgerSeq).toBe(r.sequence);
      expect(header.ledgerVersion).toBe(27);
      return header;
    });
    for (let i = 0; i + 1 < headers.length; i += 1) {
      expect(headers[i]!.ledgerSeq).toBe(headers[i + 1]!.ledgerSeq + 1);
      expect(hex(headers[i]!.previousLedgerHash.toBytes())).toBe(hex(hash(headers[i + 1]!.toXdr())));
    }
  });
});
