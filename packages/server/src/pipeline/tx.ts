/**
 * Treasury transactions go through one engine (submission/): batched, over channel accounts,
 * submitted asynchronously and confirmed by lookup, every envelope stored before submission.
 */
import { TransactionBuilder } from '@stellar/stellar-sdk';

export type { BuildSpec, TxOutcome } from './submission/types.js';
export { SubmissionEngine, SubmissionEngine as TreasurySigner, type EngineOptions } from './submission/engine.js';

export function envelopeHash(envelopeXdr: string, passphrase: string): string {
  return Buffer.from(TransactionBuilder.fromXdr(envelopeXdr, passphrase).hash()).toString('hex');
}
