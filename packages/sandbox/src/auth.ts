/**
 * Who must sign, and how much: stellar-core's thresholds. A transaction needs its source
 * account's LOW threshold (else txBAD_AUTH); each operation its source account's threshold for
 * the operation's type (else opBAD_AUTH); every signature must serve one of these checks (else
 * txBAD_AUTH_EXTRA). All checks run against the ledger as it is before the transaction applies.
 */
import { txHash } from './tx-hash.js';
import type { FeeBumpTransaction, OperationRecord, Transaction } from '@stellar/stellar-sdk';
import { opUnchecked } from './operations/index.js';
import { opBadAuth, type OpResult } from './results-xdr.js';
import { baseAccount } from './operations/context.js';
import { SignatureChecker, type WeightedKey } from './signatures.js';
import type { AccountRow, SandboxStore } from './store.js';

type Level = 'lowThreshold' | 'medThreshold' | 'highThreshold';

/** stellar-core's getThresholdLevel: MEDIUM unless the operation says otherwise. */
export function thresholdLevel(op: OperationRecord): Level {
  switch (op.type) {
    case 'accountMerge':
      return 'highThreshold';
    case 'setOptions':
      // Changing who signs, or how much is needed, is HIGH even when the new value is 0.
      return [op.masterWeight, op.lowThreshold, op.medThreshold, op.highThreshold, op.signer]
        .some((v) => v !== undefined) ? 'highThreshold' : 'medThreshold';
    case 'allowTrust':
    case 'bumpSequence':
    case 'setTrustLineFlags':
    case 'extendFootprintTtl':
    case 'restoreFootprint':
      return 'lowThreshold';
    default:
      return 'medThreshold';
  }
}

/** The master key with its weight (0 counts for nothing), then the signers in key order. */
export async function accountSigners(store: SandboxStore, account: AccountRow): Promise<WeightedKey[]> {
  const extra = (await store.listSigners(account.id)).map(({ key, weight }) => ({ key, weight }));
  return [{ key: account.id, weight: account.masterWeight }, ...extra];
}

async function meets(store: SandboxStore, checker: SignatureChecker, id: string, level: Level): Promise<boolean> {
  const account = await store.getAccount(id);
  // A source that does not exist yet (created earlier in the transaction) signs with its own key.
  if (!account) return checker.check([{ key: id, weight: 1 }], 0);
  return checker.check(await accountSigners(store, account), account[level]);
}

/** The fee-bump's outer signatures: the fee source's LOW threshold, and no signature unused. */
export async function checkOuterAuth(store: SandboxStore, env: FeeBumpTransaction, feeAccount: string): Promise<string | null> {
  const checker = new SignatureChecker(txHash(env), env.signatures);
  if (!await meets(store, checker, feeAccount, 'lowThreshold')) return 'txBadAuth';
  return checker.allUsed() ? null : 'txBadAuthExtra';
}

/** The inner transaction's checks, in stellar-core's order (checkValid). */
export function innerAuth(store: SandboxStore, inner: Transaction, source: string) {
  const checker = new SignatureChecker(txHash(inner), inner.signatures);
  return {
    /** The source's LOW threshold (txBAD_AUTH when not met). */
    source: () => meets(store, checker, source, 'lowThreshold'),
    /**
     * Each operation's threshold; like checkValid it stops at the first operation not
     * authorised and answers every operation's result (opBAD_AUTH for that one), else null.
     */
    operations: async (): Promise<OpResult[] | null> => {
      const ops = inner.operations;
      let bad = -1;
      for (const [i, op] of ops.entries()) {
        if (!(await meets(store, checker, baseAccount(op.source ?? source), thresholdLevel(op)))) {
          bad = i;
          break;
        }
      }
      return bad < 0 ? null : ops.map((op, i) => (i === bad ? opBadAuth() : opUnchecked(op)));
    },
    allUsed: () => checker.allUsed(),
  };
}
