/**
 * Soroban resources and their fee. The sandbox's fee schedule is a fixed one shaped like
 * testnet's settings (CAP-46-07): per 10,000 instructions, per entry read from disk (classic
 * entries since protocol 23; the SAC's instance and nonces are in memory), per entry written, per
 * KB read and written. The resource fee of declared resources is all non-refundable: no rent (no
 * entry the SAC touches here has a TTL to extend) and events are not billed.
 */
import { xdr } from '@stellar/stellar-sdk';
import { lookUp } from '../rpc/entries.js';
import type { SandboxStore } from '../store.js';
import { SacError } from './errors.js';
import { isClassic, type Footprint } from './keys.js';

export const FEE_SCHEDULE = {
  per10kInstructions: 25n,
  perDiskReadEntry: 6_250n,
  perWriteEntry: 10_000n,
  perKbDiskRead: 1_786n,
  perKbWrite: 3_500n,
};

const perKb = (bytes: number, fee: bigint) => (BigInt(bytes) * fee + 1023n) / 1024n;

/** The resource fee of declared resources (what stellar-core charges up front and checks). */
export function resourceFee(r: xdr.SorobanResources): bigint {
  const diskReads = [...r.footprint.readOnly, ...r.footprint.readWrite].filter(isClassic).length;
  return (BigInt(r.instructions) * FEE_SCHEDULE.per10kInstructions + 9_999n) / 10_000n
    + BigInt(diskReads) * FEE_SCHEDULE.perDiskReadEntry
    + BigInt(r.footprint.readWrite.length) * FEE_SCHEDULE.perWriteEntry
    + perKb(r.diskReadBytes, FEE_SCHEDULE.perKbDiskRead)
    + perKb(r.writeBytes, FEE_SCHEDULE.perKbWrite);
}

async function entryBytes(store: SandboxStore, keys: xdr.LedgerKey[]): Promise<number> {
  let bytes = 0;
  for (const k of keys) {
    const found = await lookUp(store, Buffer.from(k.toXdr()));
    if (found) bytes += found.data.toXdr().length;
  }
  return bytes;
}

/** What a call used: its footprint, instructions, the bytes of the classic entries it read and wrote. */
export async function usedResources(store: SandboxStore, footprint: Footprint, instructions: number): Promise<xdr.SorobanResources> {
  const classic = [...footprint.readOnly, ...footprint.readWrite].filter(isClassic);
  return new xdr.SorobanResources({
    footprint: new xdr.LedgerFootprint({ readOnly: footprint.readOnly, readWrite: footprint.readWrite }),
    instructions,
    diskReadBytes: await entryBytes(store, classic),
    writeBytes: await entryBytes(store, footprint.readWrite.filter(isClassic)),
  });
}

/** stellar-rpc's transactionData: the resources used, with their fee. */
export function transactionData(used: xdr.SorobanResources): xdr.SorobanTransactionData {
  return new xdr.SorobanTransactionData({ ext: xdr.SorobanTransactionDataExt.v0(), resources: used, resourceFee: resourceFee(used) });
}

/** At apply: the declared footprint holds every key the call touched, and no resource fell short. */
export function checkDeclared(declared: xdr.SorobanResources, used: xdr.SorobanResources, footprint: Footprint): void {
  const missing = footprint.missingFrom(declared.footprint);
  if (missing) {
    throw new SacError('Storage', 'ExceededLimit',
      `trying to access a ledger entry outside of the footprint: ${missing.type} ${missing.toXdr('base64')}`);
  }
  if (used.instructions > declared.instructions) throw new SacError('Budget', 'ExceededLimit', `instructions: ${used.instructions} used, ${declared.instructions} declared`, true);
  if (used.diskReadBytes > declared.diskReadBytes) throw new SacError('Budget', 'ExceededLimit', `disk read bytes: ${used.diskReadBytes} used, ${declared.diskReadBytes} declared`, true);
  if (used.writeBytes > declared.writeBytes) throw new SacError('Budget', 'ExceededLimit', `write bytes: ${used.writeBytes} used, ${declared.writeBytes} declared`, true);
}
