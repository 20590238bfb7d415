/** getHealth, getNetwork, getVersionInfo, getLatestLedger and getFeeStats. */
import type { SandboxLedger } from '../ledger.js';
import { PROTOCOL_VERSION } from '../ledgers.js';
import { BASE_FEE } from '../validate.js';
import { INTERNAL_ERROR, RpcError } from './errors.js';
import { closeMetaXdr } from './ledgers.js';
import { ledgerRange } from './range.js';

/** What the sandbox keeps: every ledger since genesis (stellar-rpc's default window is 7 days of ledgers). */
export const RETENTION_WINDOW = 120_960;

export async function getHealth(ledger: SandboxLedger) {
  const range = await ledgerRange(ledger);
  return {
    status: 'healthy',
    latestLedger: range.latest.sequence,
    latestLedgerCloseTime: range.latest.closeTime,
    oldestLedger: range.oldest.sequence,
    ledgerRetentionWindow: RETENTION_WINDOW,
  };
}

export async function getNetwork(ledger: SandboxLedger, friendbotUrl: string | undefined) {
  return {
    ...(friendbotUrl ? { friendbotUrl } : {}),
    passphrase: ledger.passphrase,
    protocolVersion: PROTOCOL_VERSION,
    // stellar-rpc also names the core build and the Soroban limits; the sandbox runs no core and only the built-in SACs
    build: 'fundkit-sandbox',
    limits: {
      maxContractSize: 0, maxContractDataKeySize: 0, maxContractDataEntrySize: 0, maxTxInstructions: 0,
      maxTxReadLedgerEntries: 0, maxTxReadBytes: 0, maxTxWriteLedgerEntries: 0, maxTxWriteBytes: 0,
    },
  };
}

export function getVersionInfo() {
  return {
    version: 'fundkit-sandbox',
    commitHash: '',
    buildTimestamp: '',
    captiveCoreVersion: 'fundkit-sandbox (no stellar-core)',
    protocolVersion: PROTOCOL_VERSION,
  };
}

export async function getLatestLedger(ledger: SandboxLedger) {
  const seq = await ledger.ledgerSequence();
  const l = await ledger.getLedger(seq);
  if (!l) throw new RpcError(INTERNAL_ERROR, 'could not get latest ledger');
  return {
    id: l.hash,
    protocolVersion: PROTOCOL_VERSION,
    sequence: seq,
    closeTime: String(Math.floor(Date.parse(l.closed_at) / 1000)),
    headerXdr: l.header_xdr,
    // stellar-rpc's LedgerCloseMeta of the latest ledger; see ledgers.ts for what the sandbox's holds
    metadataXdr: await closeMetaXdr(ledger, l),
  };
}

/** A fee distribution where every fee is `fee` (stellar-rpc's FeeDistribution: stroops as strings). */
function flat(fee: string, transactionCount: number, ledgerCount: number) {
  const fees = Object.fromEntries(['max', 'min', 'mode', 'p10', 'p20', 'p30', 'p40', 'p50', 'p60', 'p70', 'p80', 'p90', 'p95', 'p99']
    .map((k) => [k, fee]));
  return { ...fees, transactionCount: String(transactionCount), ledgerCount };
}

/** No congestion in the sandbox: every transaction's inclusion fee is the base fee, Soroban's too. */
export async function getFeeStats(ledger: SandboxLedger) {
  const latest = await ledger.ledgerSequence();
  return {
    sorobanInclusionFee: flat(BASE_FEE.toString(), 0, 0),
    inclusionFee: flat(BASE_FEE.toString(), 0, 0),
    latestLedger: latest,
  };
}
