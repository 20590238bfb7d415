/**
 * The Stellar Asset Contract's functions, run against the sandbox's classic entries as the host's
 * built-in SAC runs them for G… holders: balances are the accounts' XLM and the trustlines'
 * amounts, moved by the same debit and credit a classic payment uses (trustline limits included).
 * Contract (C…) holders keep their balances in contract data, which needs the WASM-era storage
 * the sandbox lacks: they are refused.
 */
import { MuxedAccount, nativeToScVal, scValToNative, StrKey, xdr } from '@stellar/stellar-sdk';
import { credit, debit, spendable, type BalanceError } from '../balances.js';
import type { SandboxStore } from '../store.js';
import type { SacCall } from './call.js';
import { addressString, SAC_DECIMALS, type BuiltinSac } from './contracts.js';
import { contractError, SAC_ERROR, SacError } from './errors.js';
import { accountKey, Footprint, instanceKey, trustlineKey } from './keys.js';

export interface SacEnv {
  store: SandboxStore;
  ledger: number;
  /**
   * `address.require_auth()` for this call: recorded (simulation) or checked against the
   * transaction's authorization entries (apply); adds the keys it reads and writes.
   */
  authorize(address: string, footprint: Footprint): Promise<void>;
}

export interface SacRun {
  retval: xdr.ScVal;
  footprint: Footprint;
  events: xdr.ContractEvent[];
  /** CPU instructions the call is metered at (a fixed price per function). */
  instructions: number;
}

/** The host's metering of the SAC's functions, rounded up (what simulation declares). */
export const INSTRUCTIONS: Record<string, number> = { transfer: 1_500_000, balance: 800_000, decimals: 400_000, name: 400_000, symbol: 400_000 };

/** A G… holder of a SAC call, or the refusal for any other kind of address. */
function holder(v: xdr.ScVal | undefined, what: string, muxedAllowed = false): { account: string; muxedId?: bigint } {
  if (v?.type !== 'scvAddress') throw new SacError('Value', 'InvalidInput', `${what} must be an address`);
  const address = v.address;
  if (address.type === 'scAddressTypeAccount') return { account: addressString(address) };
  if (address.type === 'scAddressTypeMuxedAccount' && muxedAllowed) {
    const m = MuxedAccount.fromAddress(addressString(address), '0');
    return { account: m.baseAccount().accountId(), muxedId: BigInt(m.id()) };
  }
  if (address.type === 'scAddressTypeContract') {
    throw contractError(SAC_ERROR.notClassic,
      `${what} ${addressString(address)} is a contract: contract balances need a WASM runtime the Fundkit sandbox does not have`);
  }
  throw new SacError('Value', 'InvalidInput', `${what} must be an account (G…)${muxedAllowed ? ' or a muxed account (M…)' : ''}`);
}

function i128(v: xdr.ScVal | undefined, what: string): bigint {
  if (v?.type !== 'scvI128') throw new SacError('Value', 'InvalidInput', `${what} must be an i128`);
  return scValToNative(v) as bigint;
}

const arity = (call: SacCall, n: number) => {
  if (call.args.length !== n) throw new SacError('Context', 'InvalidInput', `${call.fn} takes ${n} arguments, got ${call.args.length}`);
};

/** The balance entry of a holder: its account for XLM and for the issuer, its trustline otherwise. */
function balanceKey(sac: BuiltinSac, account: string): xdr.LedgerKey {
  return sac.issuer === null || sac.issuer === account ? accountKey(account) : trustlineKey(account, sac.asset);
}

const BALANCE_FAILURE: Record<BalanceError, () => SacError> = {
  underfunded: () => contractError(SAC_ERROR.balance, 'balance is not sufficient to spend'),
  src_no_trust: () => contractError(SAC_ERROR.trustlineMissing, 'trustline entry is missing for account'),
  no_trust: () => contractError(SAC_ERROR.trustlineMissing, 'trustline entry is missing for account'),
  line_full: () => contractError(SAC_ERROR.balance, 'balance exceeds the trustline limit'),
  no_destination: () => contractError(SAC_ERROR.accountMissing, 'account entry is missing'),
};

/** CAP-67's `transfer` event: data is the amount, or {amount, to_muxed_id} to a muxed destination. */
export function transferEvent(sac: BuiltinSac, from: string, to: string, amount: bigint, muxedId?: bigint): xdr.ContractEvent {
  const amountVal = nativeToScVal(amount, { type: 'i128' });
  const data = muxedId === undefined ? amountVal : xdr.ScVal.scvMap([
    new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('amount'), val: amountVal }),
    new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('to_muxed_id'), val: xdr.ScVal.scvU64(muxedId) }),
  ]);
  return contractEvent(sac.contractId, [
    xdr.ScVal.scvSymbol('transfer'), nativeToScVal(from, { type: 'address' }), nativeToScVal(to, { type: 'address' }),
    xdr.ScVal.scvString(sac.asset),
  ], data);
}

export function contractEvent(contractId: string, topics: xdr.ScVal[], data: xdr.ScVal): xdr.ContractEvent {
  return new xdr.ContractEvent({
    ext: xdr.ExtensionPoint.v0(),
    contractId: xdr.ContractId.fromXdrObject(StrKey.decodeContract(contractId)),
    type: xdr.ContractEventType.contract,
    body: xdr.ContractEventBody.v0(new xdr.ContractEventV0({ topics, data })),
  });
}

async function transfer(env: SacEnv, call: SacCall, fp: Footprint): Promise<SacRun['events']> {
  arity(call, 3);
  const from = holder(call.args[0], 'from');
  const to = holder(call.args[1], 'to', true);
  const amount = i128(call.args[2], 'amount');
  if (amount < 0n) throw contractError(SAC_ERROR.negativeAmount, `negative amount is not allowed: ${amount}`);
  await env.authorize(from.account, fp);
  fp.write(balanceKey(call.sac, from.account));
  fp.write(balanceKey(call.sac, to.account));
  // the SAC's order: spend from the sender, then receive
  const debited = await debit(env.store, from.account, call.sac.asset, amount, env.ledger);
  if (debited) throw BALANCE_FAILURE[debited]();
  const credited = await credit(env.store, to.account, call.sac.asset, amount, env.ledger);
  if (credited) throw BALANCE_FAILURE[credited]();
  return [transferEvent(call.sac, from.account, to.account, amount, to.muxedId)];
}

async function balance(env: SacEnv, call: SacCall, fp: Footprint): Promise<xdr.ScVal> {
  arity(call, 1);
  const id = holder(call.args[0], 'id');
  fp.read(balanceKey(call.sac, id.account));
  const can = await spendable(env.store, id.account, call.sac.asset);
  if (typeof can === 'string') throw BALANCE_FAILURE[can === 'underfunded' ? 'no_destination' : can]();
  return nativeToScVal(can, { type: 'i128' });
}

/** Runs the call, writing what it changes; the caller's savepoint keeps or drops the writes. */
export async function runSac(env: SacEnv, call: SacCall): Promise<SacRun> {
  const footprint = new Footprint();
  footprint.read(instanceKey(call.sac.contractId));
  let retval: xdr.ScVal = xdr.ScVal.scvVoid();
  let events: xdr.ContractEvent[] = [];
  switch (call.fn) {
    case 'transfer':
      events = await transfer(env, call, footprint);
      break;
    case 'balance':
      retval = await balance(env, call, footprint);
      break;
    case 'decimals':
      arity(call, 0);
      retval = xdr.ScVal.scvU32(SAC_DECIMALS);
      break;
    case 'name':
      arity(call, 0);
      retval = xdr.ScVal.scvString(call.sac.asset);
      break;
    case 'symbol':
      arity(call, 0);
      retval = xdr.ScVal.scvString(call.sac.symbol);
      break;
    default:
      throw new SacError('Context', 'MissingValue',
        `function ${call.fn} is not run by the Fundkit sandbox's SAC (transfer, balance, decimals, name, symbol)`);
  }
  return { retval, footprint, events, instructions: INSTRUCTIONS[call.fn]! };
}
