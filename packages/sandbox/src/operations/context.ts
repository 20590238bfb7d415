import { MuxedAccount, type xdr } from '@stellar/stellar-sdk';
import type { OpResult } from '../results-xdr.js';
import type { SandboxStore } from '../store.js';

export interface OpContext {
  store: SandboxStore;
  ledger: number;
  /** Ledger close time, unix seconds. */
  closeTime: number;
  /** The operation's source account (G...). */
  source: string;
  /** Active begin/endSponsoringFutureReserves pairs of this transaction: sponsored → sponsor. */
  sponsoring: Map<string, string>;
  /** A Soroban transaction's network and declared resources (invokeHostFunction). */
  soroban?: { passphrase: string; resources: xdr.SorobanResources };
}

export interface OpOutcome {
  result: OpResult;
  /** What the source really sent / the destination really got (path payments). */
  sourceAmount?: bigint;
  destAmount?: bigint;
  /** What a change_trust did to the trustline, for its effect (created, updated or removed). */
  trustline?: 'created' | 'updated' | 'removed';
  /** Who pays the reserve of the entry the operation created, when sponsored. */
  sponsor?: string;
  /** What a set_options did to who signs (Horizon's signer summary diff), in effect order. */
  signers?: SignerChange[];
  /** Signers whose reserve a sponsor took on (sponsor) or stopped paying (formerSponsor). */
  signerSponsorships?: SignerSponsorship[];
  /** What a successful invokeHostFunction returned and the contract events it emitted. */
  invocation?: { returnValue: xdr.ScVal; events: xdr.ContractEvent[] };
}

export interface SignerChange {
  type: 'signer_created' | 'signer_updated' | 'signer_removed';
  key: string;
  /** The new weight; 0 once removed. */
  weight: number;
}

export interface SignerSponsorship {
  signer: string;
  sponsor?: string;
  formerSponsor?: string;
}

export function succeeded(outcome: OpOutcome): boolean {
  return outcome.result.code === 'op_success';
}

/** M... (muxed) addresses resolve to their G... base account; the ledger only knows those. */
export function baseAccount(address: string): string {
  return address.startsWith('M') ? MuxedAccount.fromAddress(address, '0').baseAccount().accountId() : address;
}

/** Signed decimal amount string (as stellar-sdk renders XDR amounts) → stroops. */
export function stroops(amount: string): bigint {
  const negative = amount.startsWith('-');
  const [whole = '0', frac = ''] = amount.replace('-', '').split('.');
  const value = BigInt(whole) * 10_000_000n + BigInt(frac.padEnd(7, '0') || '0');
  return negative ? -value : value;
}
