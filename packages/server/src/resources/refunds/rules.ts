/** Input checks the schema cannot express (Stellar's byte and integer limits, addresses). */
import { StrKey } from '@stellar/stellar-sdk';
import { ApiError } from '../../http/api-error.js';

export interface MemoInput {
  type: 'text' | 'id' | 'hash';
  value: string;
}

const MAX_UINT64 = 18_446_744_073_709_551_615n;

const HORIZON_ONLY = 'paying a contract is a Stellar Asset Contract transfer, which needs Stellar RPC (FUNDKIT_RPC_URL); '
  + 'this server reaches the network through Horizon only';

/**
 * An account (G…), a muxed address (M…, SEP-23: paid as given), or a contract (C…: a smart wallet
 * that paid by a SAC transfer) where the network can pay one (a SAC transfer simulated over
 * Stellar RPC). A contract takes no memo.
 */
export function checkDestination(
  address: string, contracts: { payable: boolean; memo: boolean; why?: string } = { payable: false, memo: false },
): string {
  if (StrKey.isValidEd25519PublicKey(address) || StrKey.isValidMed25519PublicKey(address)) return address;
  if (StrKey.isValidContract(address)) {
    if (!contracts.payable) {
      throw new ApiError('INVALID_DESTINATION', `destination_address is a contract (C…): ${contracts.why ?? HORIZON_ONLY}. Give an account (G…) or muxed address (M…) to refund to`, {
        details: [{ path: 'body.destination_address', message: 'a contract address cannot be paid here' }],
      });
    }
    if (contracts.memo) {
      throw new ApiError('VALIDATION_ERROR', 'destination_memo cannot go with a contract (C…) destination: a contract invocation carries no memo', {
        details: [{ path: 'body.destination_memo', message: 'must be omitted for a contract destination' }],
      });
    }
    return address;
  }
  throw new ApiError('INVALID_DESTINATION', 'destination_address is not a valid Stellar account (G…), muxed address (M…) or contract (C…), checksum included', {
    details: [{ path: 'body.destination_address', message: 'is not a valid Stellar account, muxed address or contract id' }],
  });
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
