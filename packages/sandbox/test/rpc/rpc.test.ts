/**
 * The sandbox's Stellar RPC through its public surface: the standalone sandbox in-process on an
 * ephemeral port (Horizon at /, RPC at /rpc, friendbot at /friendbot), driven by the SDK's own
 * `rpc.Server`, as a wallet or a Soroban-era tool would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Asset, BASE_FEE, Keypair, Operation, rpc, TransactionBuilder, xdr, type Account, type Transaction,
} from '@stellar/stellar-sdk';
import { SANDBOX_ASSETS, startStandaloneSandbox, type StandaloneSandbox } from '../../src/index.js';
import { META_VERSION, transactionMeta } from '../../src/rpc/meta.js';

const USDC = new Asset('USDC', SANDBOX_ASSETS.USDC.issuer!);

let net: StandaloneSandbox;
let server: rpc.Server;

beforeAll(async () => {
  net = await startStandaloneSandbox({ dbPath: ':memory:', port: 0 });
  server = new rpc.Server(net.rpcUrl, { allowHttp: true });
});

afterAll(async () => {
  await net?.close();
});

/**
 * A TransactionResult's codes read from its XDR bytes (feeCharged int64, then the result's int32
 * code; for txSuccess/txFailed the operation results: count, opINNER, the operation type, its
 * code), not through union accessors, which differ between SDK versions.
 */
function codes(result: xdr.TransactionResult): { tx: number; op?: number } {
  const b = Buffer.from(result.toXDR());
  const tx = b.readInt32BE(8);
  return tx === 0 || tx === -1 ? { tx, op: b.readInt32BE(24) } : { tx };
}
const TX_SUCCESS = 0;
const TX_FAILED = -1;
const TX_BAD_SEQ = -5;
const PAYMENT_NO_DESTINATION = -5;

/** Operation metas in a TransactionMeta v3 or v4 (version, ext, txChangesBefore count, operations count…). */
function metaOperations(meta: xdr.TransactionMeta): number {
  const b = Buffer.from(meta.toXDR());
  expect(b.readInt32BE(8)).toBe(0); // txChangesBefore: empty
  return b.readInt32BE(12);
}

async function friendbot(addr: string, asset?: string): Promise<void> {
  const res = await fetch(`${net.url}/friendbot?addr=${addr}${asset ? `&asset=${asset}&amount=250` : ''}`);
  expect(res.status, await res.clone().text()).toBe(200);
  // its answer is Horizon's transaction, whose links resolve on this port
  const self = (await res.json())._links.self.href as string;
  expect((await fetch(self)).status).toBe(200);
}

async function funded(): Promise<Keypair> {
  const kp = Keypair.random();
  await friendbot(kp.publicKey());
  return kp;
}

function build(source: Account, signer: Keypair, ...ops: xdr.Operation[]): Transaction {
  const builder = new TransactionBuilder(source, { fee: BASE_FEE, networkPassphrase: net.passphrase }).setTimeout(60);
  for (const op of ops) builder.addOperation(op);
  const tx = builder.build();
  tx.sign(signer);
  return tx;
}

async function settled(hash: string): Promise<rpc.Api.GetTransactionResponse> {
  let got: rpc.Api.GetTransactionResponse | undefined;
  await expect.poll(async () => (got = await server.getTransaction(hash)).status).not.toBe(rpc.Api.GetTransactionStatus.NOT_FOUND);
  return got!;
}

/** A raw JSON-RPC call, for what the SDK's client does not let one send. */
async function call(body: unknown, contentType = 'application/json'): Promise<{ status: number; json: any }> {
  const res = await fetch(net.rpcUrl, { method: 'POST', headers: { 'content-type': contentType }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

describe('sandbox Stellar RPC', () => {
  it('getNetwork, getLatestLedger, getHealth, getVersionInfo and getFeeStats describe the sandbox', async () => {
    const network = await server.getNetwork();
    expect(network.passphrase).toBe(net.passphrase);
    expect(network.passphrase).toBe('Standalone Network ; February 2017');
    expect(network.friendbotUrl).toBe(`${net.url}/friendbot`);
    expect(network.protocolVersion).toBe(27);
    const latest = await server.getLatestLedger();
    expect(latest.sequence).toBe(await net.ledger.ledgerSequence());
    expect(latest.id).toBe((await net.ledger.getLedger(latest.sequence))!.hash);
    const health = await server.getHealth();
    expect(health).toMatchObject({ status: 'healthy', latestLedger: latest.sequence });
    expect(health.oldestLedger).toBeLessThanOrEqual(latest.sequence);
    expect((await server.getVersionInfo()).protocolVersion).toBe(27);
    const fees = await server.getFeeStats();
    expect(fees.inclusionFee.p50).toBe('100');
    expect(fees.latestLedger).toBeGreaterThanOrEqual(latest.sequence);
  });

  it('a payment sent with sendTransaction succeeds and getTransactions returns it, decodable', async () => {
    const [alice, bob] = [await funded(), await funded()];
    const tx = build(await server.getAccount(alice.publicKey()), alice,
      Operation.payment({ destination: bob.publicKey(), asset: Asset.native(), amount: '12.5' }));
    const sent = await server.sendTransaction(tx);
    expect(sent.status).toBe('PENDING');
    expect(sent.hash).toBe(Buffer.from(tx.hash()).toString('hex'));
    expect(sent.errorResult).toBeUndefined();

    const got = await settled(sent.hash);
    expect(got.status).toBe(rpc.Api.GetTransactionStatus.SUCCESS);
    if (got.status !== rpc.Api.GetTransactionStatus.SUCCESS) return;
    expect(got.txHash).toBe(sent.hash);
    expect(got.applicationOrder).toBe(1);
    expect(got.feeBump).toBe(false);
    expect(metaOperations(got.resultMetaXdr)).toBe(1);
    expect(codes(got.resultXdr)).toEqual({ tx: TX_SUCCESS, op: 0 });

    const page = await server.getTransactions({ startLedger: got.ledger, pagination: { limit: 5 } });
    const info = page.transactions.find((t) => t.txHash === sent.hash)!;
    expect(info).toBeDefined();
    expect(info.status).toBe(rpc.Api.GetTransactionStatus.SUCCESS);
    expect(info.ledger).toBe(got.ledger);
    // stellar-rpc's quirk, kept: createdAt is a number in getTransactions, a string in getTransaction
    expect(info.createdAt).toBe(Number(got.createdAt));
    expect(info.createdAt).toBe(Math.floor(Date.parse((await net.ledger.getLedger(got.ledger))!.closed_at) / 1000));
    const envelope = TransactionBuilder.fromXDR(info.envelopeXdr.toXDR('base64'), net.passphrase) as Transaction;
    const payment = envelope.operations[0] as Operation.Payment;
    expect(payment.type).toBe('payment');
    expect(payment.destination).toBe(bob.publicKey());
    expect(payment.amount).toBe('12.5000000');
    expect(info.resultXdr.feeCharged.toString()).toBe('100');
    expect(metaOperations(info.resultMetaXdr)).toBe(1);
    expect(page.latestLedger).toBeGreaterThanOrEqual(got.ledger);
    expect(page.oldestLedger).toBeLessThanOrEqual(got.ledger);
    expect(typeof page.latestLedgerCloseTimestamp).toBe('number');

    // stellar-rpc's JSON, field for field (Go's struct order; close times strings in getTransaction only)
    const DETAILS = ['status', 'txHash', 'applicationOrder', 'feeBump', 'envelopeXdr', 'resultXdr', 'resultMetaXdr', 'events', 'ledger', 'createdAt'];
    const single = (await call({ jsonrpc: '2.0', id: 1, method: 'getTransaction', params: { hash: sent.hash } })).json.result;
    expect(Object.keys(single)).toEqual(['latestLedger', 'latestLedgerCloseTime', 'oldestLedger', 'oldestLedgerCloseTime', ...DETAILS]);
    expect(typeof single.createdAt).toBe('string');
    const list = (await call({ jsonrpc: '2.0', id: 2, method: 'getTransactions', params: { startLedger: got.ledger, pagination: { limit: 1 } } })).json.result;
    expect(Object.keys(list)).toEqual(['transactions', 'latestLedger', 'latestLedgerCloseTimestamp', 'oldestLedger', 'oldestLedgerCloseTimestamp', 'cursor']);
    expect(Object.keys(list.transactions[0])).toEqual(DETAILS);
    expect(typeof list.transactions[0].createdAt).toBe('number');

    // the cursor is a TOID: a full page of one ends at that transaction, and the next page starts after it
    const one = await server.getTransactions({ startLedger: got.ledger, pagination: { limit: 1 } });
    expect(one.transactions.map((t) => t.txHash)).toEqual([sent.hash]);
    expect(BigInt(one.cursor)).toBe((BigInt(got.ledger) << 32n) | (1n << 12n) | 1n);
    const next = await server.getTransactions({ pagination: { cursor: one.cursor, limit: 5 } });
    expect(next.transactions.map((t) => t.txHash)).not.toContain(sent.hash);
    expect(next.transactions.every((t) => t.ledger > got.ledger)).toBe(true);

    // getLedgers: the header and the close meta of that ledger, with the transaction in its set
    const ledgers = await server.getLedgers({ startLedger: got.ledger, pagination: { limit: 1 } });
    expect(ledgers.ledgers).toHaveLength(1);
    const [l] = ledgers.ledgers;
    expect(l!.sequence).toBe(got.ledger);
    expect(l!.headerXdr.header.ledgerSeq).toBe(got.ledger);
    expect(Buffer.from(l!.headerXdr.hash.toBytes()).toString('hex')).toBe(l!.hash);
    const txes = xdr.expectUnionVariant(l!.metadataXdr, 'v0').v0.txSet.txs;
    expect(txes.map((e) => Buffer.from(TransactionBuilder.fromXDR(e, net.passphrase).hash()).toString('hex'))).toEqual([sent.hash]);
    expect(ledgers.cursor).toBe(String(got.ledger));
    // the cursor is the last ledger's sequence: at the tip the next page is out of range (as in
    // stellar-rpc); once another ledger closed it starts after the cursor
    await expect(server.getLedgers({ pagination: { cursor: ledgers.cursor, limit: 2 } })).rejects.toMatchObject({
      code: -32602, message: `cursor ('${got.ledger}') must be between the oldest ledger: ${ledgers.oldestLedger} and the latest ledger: ${got.ledger} for this rpc instance`,
    });
    await friendbot(Keypair.random().publicKey());
    const after = await server.getLedgers({ pagination: { cursor: ledgers.cursor, limit: 2 } });
    expect(after.ledgers[0]?.sequence).toBe(got.ledger + 1);
  });

  it('writes the TransactionMeta version of the protocol it reports (v3 up to 22, v4 from 23: v4 for its 27), decodable by the SDK', () => {
    expect(META_VERSION).toBe(4);
    for (const version of [3, 4] as const) {
      const meta = xdr.TransactionMeta.fromXDR(Buffer.from(transactionMeta(2, version).toXDR()).toString('base64'), 'base64');
      expect(Buffer.from(meta.toXDR()).readInt32BE(0)).toBe(version);
      expect(metaOperations(meta)).toBe(2);
    }
  });

  it('a transaction that fails in its ledger is FAILED with its result code', async () => {
    const alice = await funded();
    const nobody = Keypair.random().publicKey();
    const tx = build(await server.getAccount(alice.publicKey()), alice,
      Operation.payment({ destination: nobody, asset: Asset.native(), amount: '1' }));
    const sent = await server.sendTransaction(tx);
    expect(sent.status).toBe('PENDING');
    const got = await settled(sent.hash);
    expect(got.status).toBe(rpc.Api.GetTransactionStatus.FAILED);
    if (got.status !== rpc.Api.GetTransactionStatus.FAILED) return;
    expect(codes(got.resultXdr)).toEqual({ tx: TX_FAILED, op: PAYMENT_NO_DESTINATION });
    // core writes no operation meta for a failed transaction
    expect(metaOperations(got.resultMetaXdr)).toBe(0);
    const page = await server.getTransactions({ startLedger: got.ledger, pagination: { limit: 1 } });
    expect(page.transactions[0]).toMatchObject({ txHash: sent.hash, status: 'FAILED' });
  });

  it('a transaction refused at submission answers ERROR with its result', async () => {
    const alice = await funded();
    const account = await server.getAccount(alice.publicKey());
    account.incrementSequenceNumber(); // one ahead: tx_bad_seq
    const tx = build(account, alice, Operation.payment({ destination: alice.publicKey(), asset: Asset.native(), amount: '1' }));
    const sent = await server.sendTransaction(tx);
    expect(sent.status).toBe('ERROR');
    expect(codes(sent.errorResult!)).toEqual({ tx: TX_BAD_SEQ });
    expect((await server.getTransaction(sent.hash)).status).toBe(rpc.Api.GetTransactionStatus.NOT_FOUND);
    const raw = await call({ jsonrpc: '2.0', id: 1, method: 'getTransaction', params: { hash: sent.hash } });
    expect(Object.keys(raw.json.result)).toEqual([
      'latestLedger', 'latestLedgerCloseTime', 'oldestLedger', 'oldestLedgerCloseTime', 'status', 'txHash', 'applicationOrder', 'feeBump', 'events', 'ledger', 'createdAt',
    ]);
    // Go's encoding/json never leaves out a struct: an empty events object, as stellar-rpc answers
    expect(raw.json.result.events).toEqual({});
    expect(raw.json.result).toMatchObject({ status: 'NOT_FOUND', txHash: sent.hash, latestLedgerCloseTime: expect.stringMatching(/^\d+$/) });
  });

  it('getLedgerEntries returns an account with its balance and a trustline with its balance', async () => {
    const carol = await funded();
    const account = await server.getAccount(carol.publicKey());
    const row = (await net.ledger.store.getAccount(carol.publicKey()))!;
    expect(account.sequenceNumber()).toBe(row.seq.toString());

    const key = xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: carol.xdrAccountId() }));
    const { entries, latestLedger } = await server.getLedgerEntries(key);
    expect(latestLedger).toBe(await net.ledger.ledgerSequence());
    expect(entries).toHaveLength(1);
    expect(xdr.expectUnionVariant(entries[0]!.val, 'account').account.balance.toString()).toBe('100000000000'); // 10,000 XLM
    expect(entries[0]!.lastModifiedLedgerSeq).toBe(row.lastModifiedLedger);
    expect(entries[0]!.key.toXDR('base64')).toBe(key.toXDR('base64'));

    const trust = build(account, carol, Operation.changeTrust({ asset: USDC }));
    expect((await server.sendTransaction(trust)).status).toBe('PENDING');
    expect((await settled(Buffer.from(trust.hash()).toString('hex'))).status).toBe('SUCCESS');
    await friendbot(carol.publicKey(), 'USDC');
    const line = await server.getTrustline(carol.publicKey(), USDC);
    expect(line.balance.toString()).toBe('2500000000'); // 250 USDC
    expect(Buffer.from(xdr.expectUnionVariant(line.asset, 'assetTypeCreditAlphanum4').alphaNum4.assetCode.toBytes()).toString('ascii')).toBe('USDC');

    // a key the sandbox has no entry for is left out, as stellar-rpc does
    const missing = xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: Keypair.random().xdrAccountId() }));
    expect((await server.getLedgerEntries(missing, key)).entries).toHaveLength(1);
    const eurc = xdr.LedgerKey.trustline(new xdr.LedgerKeyTrustLine({
      accountId: carol.xdrAccountId(), asset: new Asset('EURC', SANDBOX_ASSETS.EURC.issuer!).toTrustLineXDRObject(),
    }));
    expect((await server.getLedgerEntries(eurc)).entries).toEqual([]);
    // TTL keys are refused, as stellar-rpc does
    const ttl = xdr.LedgerKey.ttl(new xdr.LedgerKeyTtl({ keyHash: Buffer.alloc(32) }));
    await expect(server.getLedgerEntries(ttl)).rejects.toMatchObject({ code: -32602, message: 'ledger ttl entries cannot be queried directly' });
  });

  it('simulateTransaction answers as stellar-rpc for what it cannot simulate: a bad envelope, a classic operation', async () => {
    const { json } = await call({ jsonrpc: '2.0', id: 7, method: 'simulateTransaction', params: { transaction: 'AAAA' } });
    expect(json).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'Could not unmarshal transaction' } });
    const alice = await funded();
    const payment = build(await server.getAccount(alice.publicKey()), alice,
      Operation.payment({ destination: alice.publicKey(), asset: Asset.native(), amount: '1' }));
    const sim = await server.simulateTransaction(payment);
    expect(rpc.Api.isSimulationError(sim)).toBe(true);
    if (rpc.Api.isSimulationError(sim)) expect(sim.error).toBe('Transaction contains unsupported operation type: payment');
  });

  it('allows browser dapps (CORS, as stellar-rpc): a preflight and the POST name the origin', async () => {
    const origin = 'https://lab.example';
    const pre = await fetch(net.rpcUrl, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(origin);
    expect(pre.headers.get('access-control-allow-methods')).toBe('POST');
    expect(pre.headers.get('access-control-allow-headers')).toBe('content-type');
    const res = await fetch(net.rpcUrl, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth' }) });
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect((await res.json()).result.status).toBe('healthy');
  });

  it('bad params answer -32602 with a clear message; an unknown method -32601', async () => {
    await expect(server.getTransaction('abc')).rejects.toMatchObject({ code: -32602, message: 'unexpected hash length (3)' });
    const invalid = await call({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: { transaction: 'not xdr' } });
    expect(invalid.json.error).toEqual({ code: -32602, message: 'invalid_xdr' });
    const keys = await call({ jsonrpc: '2.0', id: 2, method: 'getLedgerEntries', params: { keys: 'AAAA' } });
    expect(keys.json.error).toMatchObject({ code: -32602, message: expect.stringContaining('keys must be an array') });
    const positional = await call({ jsonrpc: '2.0', id: 3, method: 'getTransaction', params: ['00'] });
    expect(positional.json.error.code).toBe(-32602);
    const range = await call({ jsonrpc: '2.0', id: 4, method: 'getTransactions', params: { startLedger: 1_000_000 } });
    expect(range.json.error).toMatchObject({ code: -32600, message: expect.stringContaining('start ledger must be between') });
    const unknown = await call({ jsonrpc: '2.0', id: 5, method: 'getNope' });
    expect(unknown.json).toEqual({ jsonrpc: '2.0', id: 5, error: { code: -32601, message: 'method not found: getNope' } });
    expect((await call('{nope')).json.error.code).toBe(-32700);
    expect((await call({ jsonrpc: '2.0', id: 6, method: 'getHealth' }, 'text/plain')).status).toBe(415);
    const batch = await call([{ jsonrpc: '2.0', id: 'a', method: 'getHealth' }, { jsonrpc: '2.0', id: 'b', method: 'getNope' }]);
    expect(batch.json.map((r: { id: string }) => r.id)).toEqual(['a', 'b']);
  });
});
