/** Input checks the schema cannot express (Stellar's byte and integer limits, addresses). */
import { StrKey } from '@stellar/stellar-sdk';
import { ApiError } from '../../http/api-error.js';

export interface MemoInput {
  type: 'text' | 'id' | 'hash';
  value: string;
}

const MAX_UINT64 = 18_446_744_073_709_551_615n;

/** A G… account, or a muxed address (M…, SEP-23): a refund pays either as given. */
export function checkDestination(address: string): string {
  if (!StrKey.isValidEd25519PublicKey(address) && !StrKey.isValidMed25519PublicKey(address)) {
    throw new ApiError('INVALID_DESTINATION', 'destination_address is not a valid Stellar account (G…) or muxed address (M…), checksum included', {
      details: [{ path: 'body.destination_address', message: 'is not a valid Stellar account or muxed address' }],
    });
  }
  return address;
}

export function checkMemo(memo: MemoInput | undefined): void {
  if (!memo) return;
  if (memo.type === 'text' && Buffer.byteLength(memo.value, 'utf8') > 28) {
    throw new ApiError('VALIDATION_ERROR', 'destination_memo.value is longer than Stellar\'s 28 bytes (UTF-8)', {
      details: [{ path: 'body.destination_memo.value', message: 'must be at most 28 bytes in UTF-8' }],
    });
  }
  if (memo.type === 'id' && BigInt(memo.value) > MAX_UINT64) {
    throw new ApiError('VALIDATION_ERROR', 'destination_memo.value must fit an unsigned 64-bit integer', {
      details: [{ path: 'body.destination_memo.value', message: 'must be at most 18446744073709551615' }],
    });
  }
}
