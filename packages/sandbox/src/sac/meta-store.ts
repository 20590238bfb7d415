/**
 * What a successful invokeHostFunction returned and emitted, kept per transaction (sbx_state,
 * one row per Soroban transaction) for its meta (rpc/meta.ts): the sandbox keeps no other meta.
 */
import { xdr } from '@stellar/stellar-sdk';
import type { OpOutcome } from '../operations/context.js';
import type { SandboxStore } from '../store.js';

export interface Invocation {
  returnValue: xdr.ScVal;
  events: xdr.ContractEvent[];
}

const key = (hash: string) => `sac-meta:${hash}`;

export async function saveInvocations(store: SandboxStore, hash: string, outcomes: OpOutcome[]): Promise<void> {
  const inv = outcomes.find((o) => o.invocation)?.invocation;
  if (!inv) return;
  await store.setState(key(hash), JSON.stringify({
    returnValue: inv.returnValue.toXdr('base64'), events: inv.events.map((e) => e.toXdr('base64')),
  }));
}

/** The transaction's invocation (a Soroban transaction's only operation), if it had one. */
export async function loadInvocation(store: SandboxStore, hash: string): Promise<Invocation | null> {
  const raw = await store.getState(key(hash));
  if (!raw) return null;
  const j = JSON.parse(raw) as { returnValue: string; events: string[] };
  return { returnValue: xdr.ScVal.fromXdr(j.returnValue, 'base64'), events: j.events.map((e) => xdr.ContractEvent.fromXdr(e, 'base64')) };
}
