/** SEP-23 muxed addresses (M…): an account (G…) plus a 64-bit id, as Horizon shows them. */
import { randomBytes } from 'node:crypto';
import { Account, MuxedAccount, StrKey } from '@stellar/stellar-sdk';

/** The M… address of `id` (decimal u64) on account `base` (G…). */
export function muxedAddress(base: string, id: string): string {
  return new MuxedAccount(new Account(base, '0'), id).accountId();
}

/** A random 64-bit id: unguessable enough that no payer finds another intent's address by counting. */
export function randomMuxedId(): string {
  return randomBytes(8).readBigUInt64BE().toString();
}

export const isMuxedAddress = (address: string): boolean => StrKey.isValidMed25519PublicKey(address);

/** Horizon's `to_muxed` / `to_muxed_id` of a payment to `destination` (none for a G… destination). */
export function toMuxedFields(destination: string): { to_muxed?: string; to_muxed_id?: string } {
  if (!destination.startsWith('M')) return {};
  return { to_muxed: destination, to_muxed_id: MuxedAccount.fromAddress(destination, '0').id() };
}
