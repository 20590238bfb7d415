/**
 * A refund to a contract account (a C… payer, e.g. a passkey wallet) over Stellar RPC, served by
 * msw. The payer is a real one: the swap router that paid an account USDC in recorded pubnet
 * ledger 63092990 (fixtures/recorded-ledgers), refunded through the same USDC contract it used: the payout is the asset's Stellar Asset Contract `transfer(deposit, contract, amount)`,
 * invoked by the deposit account, simulated (simulateTransaction) and assembled before it is
 * signed, sent alone (a Soroban transaction has one operation). The test decodes what reached
 * sendTransaction. The refund's repositories are stand-ins: what is tested is what goes on the
 * wire (the payout's bookkeeping is the refund tests' in test/pipeline).
 */
import { Asset, Keypair, Networks, scValToNative, SorobanDataBuilder, StrKey, TransactionBuilder, xdr, type Transaction } from '@stellar/stellar-sdk';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RefundPayer } from '../../src/pipeline/refund-payout.js';
import { checkDestination } from '../../src/resources/refunds/rules.js';
import { SubmissionEngine } from '../../src/pipeline/submission/engine.js';
import type { RefundRecord } from '../../src/records/refunds.js';
import { resolveNetwork } from '../../src/stellar/networks.js';
import { createRpcNetwork } from '../../src/stellar/rpc/index.js';
import { txResult } from '@fundkit/sandbox';
import { LEDGER_63092990 } from '../fixtures/recorded-ledgers/pubnet-63092990.js';

const RPC = 'http://rpc.test/rpc';
const profile = resolveNetwork('pubnet', { passphrase: null, rpcUrl: RPC, horizonUrl: null, friendbotUrl: null, issuers: null, api: 'rpc' });
const USDC = new Asset('USDC', profile.issuers.USDC);
/** the recorded payer: a contract account */
const WALLET = LEDGER_63092990.routerSwap.router;
const treasury = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 11));
const deposit = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 12));
const RESOURCE_FEE = 123_456;

/** An AccountEntry as getLedgerEntries returns it: every account asked for exists, at sequence 5000. */
function accountEntry(key: xdr.LedgerKey): string {
  const id = xdr.expectUnionVariant(key, 'account').account.accountId;
  return xdr.LedgerEntryData.account(new xdr.AccountEntry({
    accountId: id, balance: xdr.Int64.fromString('1000000000'), seqNum: xdr.Int64.fromString('5000'), numSubEntries: 0, inflationDest: null,
    flags: 0, homeDomain: '', thresholds: Buffer.from([1, 0, 0, 0]), signers: [], ext: xdr.AccountEntryExt.v0(),
  })).toXdr('base64');
}

const calls: string[] = [];
let simulated: Transaction | null = null;
let sent: string | null = null;
let simulationError: string | null = null;
const server = setupServer(http.post(RPC, async ({ request }) => {
  const { method, params } = await request.json() as { method: string; params: any };
  calls.push(method);
  const ok = (result: object) => HttpResponse.json({ jsonrpc: '2.0', id: 1, result });
  switch (method) {
    case 'getLedgerEntries': {
      const key = xdr.LedgerKey.fromXdr(params.keys[0], 'base64');
      return ok({ entries: [{ key: params.keys[0], xdr: accountEntry(key), lastModifiedLedgerSeq: 90 }], latestLedger: 100 });
    }
    case 'simulateTransaction': {
      simulated = TransactionBuilder.fromXdr(params.transaction, profile.passphrase) as Transaction;
      // stellar-rpc's answer for an invocation that fails (here: the deposit account's balance is short)
      if (simulationError) return ok({ latestLedger: 100, error: simulationError, events: [] });
      const data = new SorobanDataBuilder().setResourceFee(RESOURCE_FEE).setResources(1_000_000, 2_000, 300).build();
      return ok({ latestLedger: 100, minResourceFee: String(RESOURCE_FEE), transactionData: data.toXdr('base64'),
        results: [{ auth: [], xdr: xdr.ScVal.scvVoid().toXdr('base64') }], cost: { cpuInsns: '1000', memBytes: '1000' } });
    }
    case 'sendTransaction':
      sent = params.transaction;
      return ok({ status: 'PENDING', hash: Buffer.from(TransactionBuilder.fromXdr(sent!, profile.passphrase).hash()).toString('hex'), latestLedger: 100, latestLedgerCloseTime: '1785000000' });
    case 'getTransaction': {
      if (!sent) return ok({ status: 'NOT_FOUND', latestLedger: 100, latestLedgerCloseTime: '1785000000', oldestLedger: 1, oldestLedgerCloseTime: '1784000000' });
      const success = xdr.OperationResult.opInner(xdr.OperationResultTr.invokeHostFunction(xdr.InvokeHostFunctionResult.invokeHostFunctionSuccess(Buffer.alloc(32))));
      return ok({ status: 'SUCCESS', latestLedger: 101, latestLedgerCloseTime: '1785000005', oldestLedger: 1, oldestLedgerCloseTime: '1784000000',
        ledger: 101, createdAt: '1785000005', applicationOrder: 1, feeBump: false, envelopeXdr: sent,
        resultXdr: txResult(200_000n, 'txSuccess', [success]).toXdr('base64'), resultMetaXdr: xdr.TransactionMeta.v4(new xdr.TransactionMetaV4({
          ext: xdr.ExtensionPoint.v0(), txChangesBefore: [], txChangesAfter: [], sorobanMeta: null, events: [], diagnosticEvents: [],
          operations: [new xdr.OperationMetaV2({ ext: xdr.ExtensionPoint.v0(), changes: [], events: [] })] })).toXdr('base64') });
    }
    default:
      return HttpResponse.json({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: `unexpected ${method}` } });
  }
}));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

function refund(over: Partial<RefundRecord> = {}): RefundRecord {
  return {
    id: 'refund_1', funding_intent_id: 'fi_1', status: 'PROCESSING', source: 'DEPOSIT', amount: 25_000_000n, asset_code: 'USDC',
    stellar_asset: `USDC:${USDC.getIssuer()}`, destination_address: WALLET, memo_type: null, memo_value: null, envelope_xdr: null, attempts: 0,
    ...over,
  } as RefundRecord;
}

function payer(engine: SubmissionEngine, saved: string[], outcomes: object[] = []) {
  // stand-ins: the refund is already PROCESSING; its outcome is recorded (updateFrom), then left to another process (false)
  return new RefundPayer({
    sql: { transaction: (fn: () => Promise<unknown>) => fn() },
    refunds: {
      updateFrom: async (_id: string, _from: string[], patch: object) => { outcomes.push(patch); return false; },
      update: async (_id: string, p: { envelope_xdr?: string }) => { if (p.envelope_xdr) saved.push(p.envelope_xdr); },
    },
    depositKeys: { forIntent: async () => ({ address: deposit.publicKey(), signer: deposit }) }, signer: engine,
  } as never);
}

describe('refund destinations', () => {
  it('a contract (C…) is accepted where the network can pay it, refused plainly over Horizon alone; anything else is no destination', () => {
    expect(checkDestination(WALLET, { payable: true, memo: false })).toBe(WALLET);
    expect(() => checkDestination(WALLET, { payable: false, memo: false })).toThrow(expect.objectContaining({ code: 'INVALID_DESTINATION', message: expect.stringMatching(/Stellar RPC/) }));
    expect(() => checkDestination(WALLET, { payable: true, memo: true })).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
    expect(checkDestination(deposit.publicKey())).toBe(deposit.publicKey());
    expect(() => checkDestination(`${WALLET.slice(0, -1)}A`, { payable: true, memo: false })).toThrow(expect.objectContaining({ code: 'INVALID_DESTINATION' }));
  });
});

describe('a refund to a contract address', () => {
  it('is a SAC transfer from the deposit account, simulated, assembled with its resource fee, signed and sent', async () => {
    const engine = new SubmissionEngine(createRpcNetwork(profile, { pollDelay: () => 5 }), treasury, { channels: 1, pollMs: 5 });
    const saved: string[] = [];
    await payer(engine, saved).pay(refund());

    expect(calls).toContain('simulateTransaction');
    expect(calls.indexOf('simulateTransaction')).toBeLessThan(calls.indexOf('sendTransaction'));
    const tx = TransactionBuilder.fromXdr(sent!, profile.passphrase) as Transaction;
    // the envelope stored before submission is the one sent
    expect(saved).toEqual([sent]);
    expect(tx.operations).toHaveLength(1);
    const op = tx.operations[0]!;
    expect(op.type).toBe('invokeHostFunction');
    expect(op.source).toBe(deposit.publicKey());
    const invoke = xdr.expectUnionVariant((op as { func: xdr.HostFunction }).func, 'hostFunctionTypeInvokeContract').invokeContract;
    expect(StrKey.encodeContract(Buffer.from(xdr.expectUnionVariant(invoke.contractAddress, 'scAddressTypeContract').contractId.toBytes())))
      .toBe(LEDGER_63092990.routerSwap.usdcSac);
    expect(scValToNative(xdr.ScVal.scvSymbol(invoke.functionName))).toBe('transfer');
    expect(invoke.args.map((a) => scValToNative(a))).toEqual([deposit.publicKey(), WALLET, 25_000_000n]);
    // assembled from the simulation: its Soroban data, and its resource fee on top of the inclusion fee
    const env = tx.toEnvelope();
    const v1 = xdr.expectUnionVariant(env, 'envelopeTypeTx').v1;
    const soroban = xdr.expectUnionVariant(v1.tx.ext, 'sorobanData').sorobanData;
    expect(Number(soroban.resourceFee)).toBe(RESOURCE_FEE);
    expect(Number(tx.fee)).toBeGreaterThanOrEqual(RESOURCE_FEE);
    // signed by the channel (the transaction's source) and the deposit account (the transfer's `from`)
    expect(tx.source).not.toBe(deposit.publicKey());
    const hints = tx.signatures.map((s) => Buffer.from(s.hint.toBytes()).toString('hex'));
    expect(hints).toContain(Buffer.from(deposit.signatureHint()).toString('hex'));
    expect(simulated!.operations[0]!.type).toBe('invokeHostFunction');
  });

  it('fails, with the network\'s reason, when the simulation says the transfer would fail; nothing is sent', async () => {
    calls.length = 0;
    sent = null;
    simulationError = 'HostError: Error(Contract, #10)\n\nEvent log (newest first):\n   0: [Diagnostic Event] ...';
    try {
      const engine = new SubmissionEngine(createRpcNetwork(profile, { pollDelay: () => 5 }), treasury, { channels: 1, pollMs: 5 });
      const outcomes: { status?: string; failure_code?: string; failure_message?: string }[] = [];
      await payer(engine, [], outcomes).pay(refund({ id: 'refund_2' }));
      expect(outcomes).toEqual([expect.objectContaining({ status: 'FAILED', failure_code: 'simulation_failed' })]);
      expect(outcomes[0]!.failure_message).toContain('HostError: Error(Contract, #10)');
      expect(calls).toContain('simulateTransaction');
      expect(calls).not.toContain('sendTransaction');
    } finally {
      simulationError = null;
    }
  });
});
