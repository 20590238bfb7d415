/**
 * simulateTransaction for calls of the built-in Stellar Asset Contracts (sac/), in stellar-rpc's
 * shape: the call run on the latest state and rolled back, its return value, the authorizations
 * it needs (recording mode), the footprint and resources it used and their fee. A failing call
 * answers `error` (the host's error) in the result, as stellar-rpc does; a transaction it cannot
 * simulate answers stellar-rpc's words for that.
 */
import { FeeBumpTransaction, TransactionBuilder, xdr, type Transaction } from '@stellar/stellar-sdk';
import { savepoint } from '../apply-tx.js';
import type { SandboxLedger } from '../ledger.js';
import { baseAccount } from '../operations/context.js';
import { enforcingAuth, recordingAuth } from '../sac/auth.js';
import { sacCall } from '../sac/call.js';
import { SacError } from '../sac/errors.js';
import { transactionData, usedResources } from '../sac/resources.js';
import { runSac } from '../sac/run.js';
import { base64Format, invalidParams, stringParam } from './errors.js';

const b64 = (v: { toXdr(format: 'base64'): string }) => v.toXdr('base64');

function decode(envelope: string, passphrase: string): Transaction {
  let tx: Transaction | FeeBumpTransaction;
  try {
    tx = TransactionBuilder.fromXdr(envelope, passphrase);
  } catch {
    throw invalidParams('Could not unmarshal transaction');
  }
  if (tx instanceof FeeBumpTransaction) throw invalidParams('To simulate a fee bump transaction, simulate its inner transaction');
  return tx;
}

/** The call's events as simulation reports them: diagnostic events of a successful call. */
function diagnostic(events: xdr.ContractEvent[]): string[] {
  return events.map((event) => b64(new xdr.DiagnosticEvent({ inSuccessfulContractCall: true, event })));
}

export async function simulateTransaction(ledger: SandboxLedger, params: Record<string, unknown>) {
  base64Format(params);
  const tx = decode(stringParam(params, 'transaction', true), ledger.passphrase);
  const latestLedger = await ledger.ledgerSequence();
  if (tx.operations.length !== 1) return { error: 'Transaction contains more than one operation', latestLedger };
  const op = tx.operations[0]!;
  if (op.type !== 'invokeHostFunction') {
    const known = op.type === 'extendFootprintTtl' || op.type === 'restoreFootprint';
    return {
      error: known ? `${op.type} is not needed in the Fundkit sandbox: the Stellar Asset Contracts' entries never expire`
        : `Transaction contains unsupported operation type: ${op.type}`,
      latestLedger,
    };
  }
  const call = sacCall(op, ledger.passphrase);
  if (call instanceof SacError) return { error: call.hostError, latestLedger };
  const source = baseAccount(op.source ?? tx.source);
  const store = ledger.store;
  let answer: object = {};
  // the call's writes, rolled back: simulation reads the state as the next ledger would apply it
  await store.sql.transaction(() => savepoint(store, async () => {
    try {
      // recording mode, unless the transaction carries its entries (then they are what it uses)
      const auth: xdr.SorobanAuthorizationEntry[] = [...call.auth];
      const authorize = call.auth.length > 0
        ? enforcingAuth(call, { store, ledger: latestLedger + 1, passphrase: ledger.passphrase, source, unsignedAllowed: true })
        : recordingAuth(call, source, auth);
      const run = await runSac({ store, ledger: latestLedger + 1, authorize }, call);
      const data = transactionData(await usedResources(store, run.footprint, run.instructions));
      answer = {
        transactionData: b64(data),
        ...(run.events.length > 0 ? { events: diagnostic(run.events) } : {}),
        minResourceFee: data.resourceFee.toString(),
        results: [{ auth: auth.map(b64), xdr: b64(run.retval) }],
      };
    } catch (e) {
      if (!(e instanceof SacError)) throw e;
      answer = { error: e.hostError };
    }
    return false;
  }));
  return { ...answer, latestLedger };
}
