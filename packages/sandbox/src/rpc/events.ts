/**
 * getEvents, in stellar-rpc's shape (protocol/get_events.go): the contract events of successful
 * transactions from startLedger (or after a cursor), matched by type, contract ids and topic
 * filters ("*" one segment, "**" any number at the end). Event ids and cursors are stellar-rpc's:
 * the TOID of (ledger, transaction, operation), a dash, the event's index, zero-padded.
 * The events are CAP-67's of the built-in SACs' calls and of classic payments (meta.ts); fee events
 * are left out.
 */
import { StrKey, xdr } from '@stellar/stellar-sdk';
import type { HorizonTransaction } from '../shared/horizon-types.js';
import type { SandboxLedger } from '../ledger.js';
import { transactionEvents } from './meta.js';
import { base64Format, INVALID_REQUEST, invalidParams, RpcError, stringParam, uint32Param } from './errors.js';
import { ledgerRange } from './range.js';

/** stellar-rpc's defaults (--max-events-limit, --default-events-limit) and its scan window. */
export const MAX_EVENTS_LIMIT = 10_000;
export const DEFAULT_EVENTS_LIMIT = 100;
const LEDGER_SCAN_LIMIT = 10_000;

const toid = (ledger: number, tx: number, op: number) => (BigInt(ledger) << 32n) | (BigInt(tx) << 12n) | BigInt(op);
const eventId = (position: bigint, index: number) => `${position.toString().padStart(19, '0')}-${String(index).padStart(10, '0')}`;

type Segment = { wildcard: '*' | '**' } | { value: string };
interface Filter {
  types: Set<string>;
  contractIds: string[];
  topics: Segment[][];
}

function parseSegment(s: unknown, where: string): Segment {
  if (s === '*' || s === '**') return { wildcard: s };
  if (typeof s !== 'string') throw invalidParams(`${where}: a segment is "*", "**" or a base64 ScVal`);
  try {
    return { value: xdr.ScVal.fromXdr(s, 'base64').toXdr('base64') };
  } catch {
    throw invalidParams(`${where}: cannot unmarshal ${JSON.stringify(s)} as an ScVal`);
  }
}

function parseFilters(raw: unknown): Filter[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalidParams('invalid parameters: filters must be an array');
  if (raw.length > 5) throw invalidParams('maximum 5 filters per request');
  return raw.map((f: Record<string, unknown>, i) => {
    const where = `filter ${i + 1} invalid`;
    const types = new Set(typeof f.type === 'string' && f.type !== '' ? f.type.split(',') : []);
    for (const t of types) if (t !== 'system' && t !== 'contract') throw invalidParams(`${where}: filter type invalid: if set, type must be either 'system' or 'contract'`);
    const contractIds = (f.contractIds ?? []) as string[];
    if (!Array.isArray(contractIds) || contractIds.length > 5) throw invalidParams(`${where}: maximum 5 contract IDs per filter`);
    contractIds.forEach((id, j) => {
      if (typeof id !== 'string' || !StrKey.isValidContract(id)) throw invalidParams(`${where}: contract ID ${j + 1} invalid`);
    });
    const topics = (f.topics ?? []) as unknown[][];
    if (!Array.isArray(topics) || topics.length > 5) throw invalidParams(`${where}: maximum 5 topics per filter`);
    const parsed = topics.map((t, j) => {
      if (!Array.isArray(t) || t.length < 1) throw invalidParams(`${where}: topic ${j + 1} invalid: topic must have at least 1 segment`);
      const segments = t.map((s) => parseSegment(s, `${where}: topic ${j + 1} invalid`));
      const fixed = 'wildcard' in segments.at(-1)! && (segments.at(-1) as { wildcard: string }).wildcard === '**' ? segments.slice(0, -1) : segments;
      if (fixed.some((s) => 'wildcard' in s && s.wildcard === '**')) {
        throw invalidParams(`${where}: topic ${j + 1} invalid: wildcard '**' is only allowed as the last segment`);
      }
      if (fixed.length > 4) throw invalidParams(`${where}: topic ${j + 1} invalid: topic cannot have more than 4 segments`);
      return segments;
    });
    return { types, contractIds, topics: parsed };
  });
}

function topicMatches(filter: Segment[], topics: string[]): boolean {
  const last = filter.at(-1);
  const open = last !== undefined && 'wildcard' in last && last.wildcard === '**';
  const fixed = open ? filter.slice(0, -1) : filter;
  if (open ? topics.length < fixed.length : topics.length !== fixed.length) return false;
  return fixed.every((s, i) => 'wildcard' in s || s.value === topics[i]);
}

interface Found {
  event: xdr.ContractEvent;
  contractId: string;
  topics: string[];
}

function matches(filters: Filter[], e: Found): boolean {
  if (filters.length === 0) return true;
  return filters.some((f) => (f.types.size === 0 || f.types.has('contract'))
    && (f.contractIds.length === 0 || f.contractIds.includes(e.contractId))
    && (f.topics.length === 0 || f.topics.some((t) => topicMatches(t, e.topics))));
}

interface OpFound extends Found {
  operation: number;
  /** Its index among its operation's events. */
  index: number;
}

/** A successful transaction's contract events, by operation: a SAC call's, classic movements'. */
async function eventsOf(ledger: SandboxLedger, t: HorizonTransaction): Promise<OpFound[]> {
  const { operations } = await transactionEvents(ledger.store, t, ledger.passphrase);
  return operations.flatMap((events, operation) => events.map((event, index) => ({
    event, operation, index,
    contractId: event.contractId ? StrKey.encodeContract(Buffer.from(event.contractId.toXdrObject())) : '',
    topics: event.body.type === 'v0' ? event.body.v0.topics.map((v) => v.toXdr('base64')) : [],
  })));
}

function parseCursor(cursor: string): [bigint, number] {
  const m = /^(\d+)(?:-(\d+))?$/.exec(cursor);
  if (!m) throw invalidParams(`invalid cursor ${JSON.stringify(cursor)}: expected "<toid>-<event index>"`);
  return [BigInt(m[1]!), Number(m[2] ?? '0')];
}

export async function getEvents(ledger: SandboxLedger, params: Record<string, unknown>) {
  base64Format(params);
  const filters = parseFilters(params.filters);
  const page = (params.pagination ?? {}) as Record<string, unknown>;
  const cursor = stringParam(page, 'cursor') || undefined;
  const limit = uint32Param(page, 'limit') || DEFAULT_EVENTS_LIMIT;
  const startParam = uint32Param(params, 'startLedger') ?? 0;
  const endParam = uint32Param(params, 'endLedger') ?? 0;
  if (cursor !== undefined && (startParam !== 0 || endParam !== 0)) throw invalidParams('ledger ranges and cursor cannot both be set');
  if (cursor === undefined && startParam <= 0) throw invalidParams('startLedger must be positive');
  if (limit > MAX_EVENTS_LIMIT) throw invalidParams(`limit must not exceed ${MAX_EVENTS_LIMIT}`);
  const range = await ledgerRange(ledger);
  let after: [bigint, number];
  let start: number;
  if (cursor !== undefined) {
    after = parseCursor(cursor);
    start = Number(after[0] >> 32n);
  } else {
    if (startParam < range.oldest.sequence || startParam > range.latest.sequence) {
      throw new RpcError(INVALID_REQUEST,
        `startLedger must be between the oldest ledger: ${range.oldest.sequence} and the latest ledger: ${range.latest.sequence} for this rpc instance.`);
    }
    start = startParam;
    after = [toid(start, 0, 0), -1];
  }
  // the end of the window (exclusive): endLedger, the scan limit, or past the latest ledger
  const end = Math.min(endParam > 0 ? endParam : Infinity, start + LEDGER_SCAN_LIMIT, range.latest.sequence + 1);
  const events = [];
  let full = false;
  scan: for (let from = (BigInt(Math.max(start, 1)) << 32n) - 1n; ;) {
    const txs = await ledger.listTransactions({}, { cursor: from, limit: 200, order: 'asc' });
    for (const t of txs) {
      if (t.ledger >= end) break scan;
      for (const e of await eventsOf(ledger, t)) {
        // stellar-rpc's id: the TOID of (ledger, transaction, operation) and the event's index in it
        const position = BigInt(t.paging_token) + BigInt(e.operation);
        const i = e.index;
        if (position < after[0] || (position === after[0] && i <= after[1])) continue;
        if (!matches(filters, e)) continue;
        events.push({
          type: 'contract', ledger: t.ledger, ledgerClosedAt: t.created_at, contractId: e.contractId,
          id: eventId(position, i), operationIndex: e.operation, transactionIndex: Number((position >> 12n) & 0xfffffn),
          txHash: t.hash, inSuccessfulContractCall: true, topic: e.topics, value: e.event.body.type === 'v0' ? e.event.body.v0.data.toXdr('base64') : '',
        });
        if (events.length >= limit) {
          full = true;
          break scan;
        }
      }
    }
    if (txs.length < 200) break;
    from = BigInt(txs.at(-1)!.paging_token);
  }
  return {
    events,
    // the last event on a full page; else the end of the window searched
    cursor: full ? events.at(-1)!.id : eventId(toid(end, 0, 0) - 1n, 0),
    latestLedger: range.latest.sequence,
    oldestLedger: range.oldest.sequence,
    latestLedgerCloseTime: String(range.latest.closeTime),
    oldestLedgerCloseTime: String(range.oldest.closeTime),
  };
}
