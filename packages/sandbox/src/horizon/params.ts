/** Path and filter parameters, refused with Horizon's 400 bad_request when malformed. */
import type { Request, Response } from 'express';
import { StrKey } from '@stellar/stellar-sdk';
import { badRequest } from './render.js';

const ACCOUNT_REASON = 'Account ID must start with `G` and contain 56 alphanum characters';
const HASH_REASON = 'Transaction hash must be a hex-encoded, lowercase SHA-256 hash';

/** The `:id` account, or undefined after answering 400 (Horizon's field name is account_id). */
export function accountParam(req: Request, res: Response, field = 'account_id'): string | undefined {
  const id = String(req.params.id);
  if (StrKey.isValidEd25519PublicKey(id)) return id;
  badRequest(res, field, ACCOUNT_REASON);
  return undefined;
}

export function txHashParam(req: Request, res: Response): string | undefined {
  const hash = String(req.params.hash);
  if (/^[0-9a-f]{64}$/.test(hash)) return hash;
  badRequest(res, 'tx_id', HASH_REASON);
  return undefined;
}

export function operationParam(req: Request, res: Response): bigint | undefined {
  const id = String(req.params.id);
  if (/^\d{1,19}$/.test(id) && BigInt(id) < 2n ** 63n) return BigInt(id);
  badRequest(res, 'id', 'unparseable value');
  return undefined;
}

export function ledgerParam(req: Request, res: Response): number | undefined {
  const seq = String(req.params.seq);
  if (/^\d{1,10}$/.test(seq) && Number(seq) <= 0xffffffff) return Number(seq);
  badRequest(res, 'ledger_id', 'unparseable value');
  return undefined;
}

export function isAccountId(value: string): boolean {
  return StrKey.isValidEd25519PublicKey(value);
}

export { ACCOUNT_REASON };
