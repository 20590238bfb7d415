/** The set_options operation record's fields, as Horizon renders them (protocols/horizon SetOptions). */
import { StrKey, type OperationRecord } from '@stellar/stellar-sdk';

/** A parsed set_options operation (SDK 17 types it as SetOptionsResult<SignerOpts>). */
type SetOptionsOp = Extract<OperationRecord, { type: 'setOptions' }>;

/** Parsed signer keys are bytes; a hex string (the builder's input form) is accepted too. */
const bytes = (v: Uint8Array | string) => (typeof v === 'string' ? Buffer.from(v, 'hex') : v);

const FLAG_NAMES = ['auth_required', 'auth_revocable', 'auth_immutable', 'auth_clawback_enabled'];

/** Horizon's set_flags/_s or clear_flags/_s: each flag bit and its name. */
function flagFields(prefix: 'set' | 'clear', flags: number | undefined) {
  const bits = FLAG_NAMES.map((_, i) => 1 << i).filter((bit) => (flags ?? 0) & bit);
  if (bits.length === 0) return {};
  return { [`${prefix}_flags`]: bits, [`${prefix}_flags_s`]: bits.map((b) => FLAG_NAMES[Math.log2(b)]) };
}

/** A signer key as Horizon writes it: G... (ed25519), T... (pre-auth tx), X... (hash), P... (payload). */
function signerKey(s: NonNullable<SetOptionsOp['signer']>): string {
  if (s.ed25519PublicKey !== undefined) return s.ed25519PublicKey;
  if (s.preAuthTx !== undefined) return StrKey.encodePreAuthTx(bytes(s.preAuthTx));
  if (s.sha256Hash !== undefined) return StrKey.encodeSha256Hash(bytes(s.sha256Hash));
  return s.ed25519SignedPayload!;
}

/** Only the options the operation sets, in Horizon's field order (protocols/horizon SetOptions). */
export function setOptionsFields(op: SetOptionsOp) {
  const signer = op.signer;
  const present = (name: string, value: unknown) => (value === undefined ? {} : { [name]: value });
  return {
    ...(op.homeDomain ? { home_domain: op.homeDomain } : {}),
    ...present('inflation_dest', op.inflationDest),
    ...present('master_key_weight', op.masterWeight),
    ...(signer ? { signer_key: signerKey(signer), signer_weight: signer.weight } : {}),
    ...flagFields('set', op.setFlags),
    ...flagFields('clear', op.clearFlags),
    ...present('low_threshold', op.lowThreshold),
    ...present('med_threshold', op.medThreshold),
    ...present('high_threshold', op.highThreshold),
  };
}
