/**
 * The sandbox runs the Stellar Asset Contracts natively: a wallet pays with a SAC `transfer`
 * through stellar-sdk's rpc.Server (simulate, prepare, sign, send), as it would on testnet. Only
 * the public surface: the sandbox's RPC, its Horizon and its friendbot.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Address, Asset, authorizeEntry, BASE_FEE, contract, Contract, Keypair, MuxedAccount, nativeToScVal, Operation, rpc, scValToNative, SorobanDataBuilder,
  TransactionBuilder, xdr, Account, type Transaction,
} from '@stellar/stellar-sdk';
import { SANDBOX_ASSETS, SANDBOX_PASSPHRASE, startStandaloneSandbox, type StandaloneSandbox } from '@fundkit/sandbox';
import { startTestServer } from '../helpers/server.js';
import { FAST_ENV } from '../pipeline/helpers.js';

/** Where a sandbox network answers: its Horizon, RPC and friendbot. */
interface Net {
  horizon: string;
  rpcUrl: string;
  friendbot: string;
  passphrase: string;
  close(): Promise<void>;
}

/**
 * The standalone sandbox (its own SQLite chain), and a reference server's sandbox in its thread,
 * reached through the server's forwarding of /sandbox/horizon, /sandbox/rpc and /sandbox/friendbot.
 */
const SETUPS: Array<{ name: string; start: () => Promise<Net> }> = [
  {
    name: 'fundkit sandbox',
    start: async () => {
      const s: StandaloneSandbox = await startStandaloneSandbox({ dbPath: ':memory:', port: 0 });
      return { horizon: s.url, rpcUrl: s.rpcUrl, friendbot: `${s.url}/friendbot`, passphrase: s.passphrase, close: () => s.close() };
    },
  },
  {
    name: "a server's sandbox thread, through the server's /sandbox/* paths",
    start: async () => {
      const t = await startTestServer({ env: { ...FAST_ENV, FUNDKIT_SANDBOX_NETWORK: 'thread' } });
      return {
        horizon: `${t.url}/sandbox/horizon`, rpcUrl: `${t.url}/sandbox/rpc`, friendbot: `${t.url}/sandbox/friendbot`,
        passphrase: SANDBOX_PASSPHRASE, close: () => t.close(),
      };
    },
  },
];

let net: Net;
let server: rpc.Server;
let usdc: Contract;
let xlm: Contract;

async function friendbot(addr: string, asset?: string): Promise<void> {
  const res = await fetch(`${net.friendbot}?addr=${addr}${asset ? `&asset=${asset}&amount=250` : ''}`);
  expect(res.status, await res.clone().text()).toBe(200);
}

/** A new account with XLM and, when asked, 250 USDC. */
async function wallet(withUsdc = true): Promise<Keypair> {
  const kp = Keypair.random();
  await friendbot(kp.publicKey());
  if (!withUsdc) return kp;
  const trust = unsigned(await server.getAccount(kp.publicKey()), Operation.changeTrust({ asset: new Asset('USDC', SANDBOX_ASSETS.USDC.issuer!) }));
  expect((await sendSigned(trust, kp)).status).toBe(rpc.Api.GetTransactionStatus.SUCCESS);
  await friendbot(kp.publicKey(), 'USDC');
  return kp;
}

/** Horizon's balance of an asset ("native" or "USDC"), in stroops. */
async function balanceOf(account: string, code: 'native' | 'USDC'): Promise<bigint> {
  const res = await fetch(`${net.horizon}/accounts/${account}`);
  const body = await res.json() as { balances: Array<{ asset_type: string; asset_code?: string; balance: string }> };
  const line = body.balances.find((b) => (code === 'native' ? b.asset_type === 'native' : b.asset_code === code));
  if (!line) return 0n;
  const [whole, frac = ''] = line.balance.split('.');
  return BigInt(whole!) * 10_000_000n + BigInt(frac.padEnd(7, '0'));
}

const addr = (k: Keypair | string) => new Address(typeof k === 'string' ? k : k.publicKey()).toScVal();
const i128 = (n: bigint) => nativeToScVal(n, { type: 'i128' });

function unsigned(source: Account, op: xdr.Operation): Transaction {
  return new TransactionBuilder(source, { fee: BASE_FEE, networkPassphrase: net.passphrase }).addOperation(op).setTimeout(60).build();
}

async function transferTx(source: Keypair, from: Keypair, to: string, amount: bigint, contract = usdc): Promise<Transaction> {
  return unsigned(await server.getAccount(source.publicKey()), contract.call('transfer', addr(from), addr(to), i128(amount)));
}

async function settled(hash: string): Promise<rpc.Api.GetTransactionResponse> {
  let got: rpc.Api.GetTransactionResponse | undefined;
  await expect.poll(async () => (got = await server.getTransaction(hash)).status).not.toBe(rpc.Api.GetTransactionStatus.NOT_FOUND);
  return got!;
}

async function sendSigned(tx: Transaction, signer: Keypair): Promise<rpc.Api.GetTransactionResponse> {
  tx.sign(signer);
  const sent = await server.sendTransaction(tx);
  expect(sent.status, JSON.stringify(sent.errorResult?.toXdr('base64'))).toBe('PENDING');
  return settled(sent.hash);
}

/** The SAC `transfer` events of a transaction's meta (v4: in its operations' metas). */
function transferEvents(meta: xdr.TransactionMeta) {
  expect(meta.type).toBe('v4');
  const v4 = meta.value as xdr.TransactionMetaV4;
  return v4.operations.flatMap((op) => op.events).map((e) => {
    const body = e.body.value as xdr.ContractEventV0;
    return {
      contract: Address.contract(e.contractId!.toXdrObject()).toString(),
      topics: body.topics.map((t) => scValToNative(t)),
      data: scValToNative(body.data),
    };
  });
}

/**
 * A transfer of `from`'s USDC that `source` sends, prepared once (recording its auth entry, whose
 * nonce is in the footprint); `sign` signs that entry as `signer` valid through `until`, and
 * `send` sends it with the resources prepared, as a relayer does without simulating again.
 */
async function relayedTransfer(source: Keypair, from: Keypair, to: string, amount: bigint) {
  const call = usdc.call('transfer', addr(from), addr(to), i128(amount));
  const prepared = await server.prepareTransaction(unsigned(await server.getAccount(source.publicKey()), call));
  const data = (prepared.toEnvelope().value as xdr.TransactionV1Envelope).tx.ext.value as xdr.SorobanTransactionData;
  const op = prepared.operations[0] as unknown as { func: xdr.HostFunction; auth: xdr.SorobanAuthorizationEntry[] };
  return {
    recorded: op.auth,
    readOnly: data.resources.footprint.readOnly.map((k) => k.type as string),
    readWrite: data.resources.footprint.readWrite.map((k) => k.type as string),
    sign: (signer: Keypair, until: number) => Promise.all(op.auth.map((e) => authorizeEntry(e, signer, until, net.passphrase))),
    send: async (auth: xdr.SorobanAuthorizationEntry[]) => {
      const tx = new TransactionBuilder(await server.getAccount(source.publicKey()), {
        fee: (100n + data.resourceFee).toString(), networkPassphrase: net.passphrase,
      }).setSorobanData(data).addOperation(Operation.invokeHostFunction({ func: op.func, auth })).setTimeout(60).build();
      return sendSigned(tx, source);
    },
  };
}

describe.each(SETUPS)('the Stellar Asset Contracts in the sandbox ($name)', ({ start }) => {
  beforeAll(async () => {
    net = await start();
    server = new rpc.Server(net.rpcUrl, { allowHttp: true });
    usdc = new Contract(new Asset('USDC', SANDBOX_ASSETS.USDC.issuer!).contractId(net.passphrase));
    xlm = new Contract(Asset.native().contractId(net.passphrase));
  });

  afterAll(async () => {
    await net?.close();
  });

  it('balance, decimals, name and symbol simulate what the ledger holds', async () => {
    const alice = await wallet();
    const account = await server.getAccount(alice.publicKey());
    const sim = await server.simulateTransaction(unsigned(account, usdc.call('balance', addr(alice))));
    expect(rpc.Api.isSimulationSuccess(sim)).toBe(true);
    if (!rpc.Api.isSimulationSuccess(sim)) return;
    expect(scValToNative(sim.result!.retval)).toBe(250_0000000n);
    expect(sim.result!.auth).toEqual([]);
    expect(Number(sim.minResourceFee)).toBeGreaterThan(0);
    // read-only: the contract's instance and the holder's trustline
    const fp = sim.transactionData.build().resources.footprint;
    expect(fp.readWrite).toHaveLength(0);
    expect(fp.readOnly.map((k) => k.type).sort()).toEqual(['contractData', 'trustline']);

    const value = async (c: Contract, fn: string) => {
      const s = await server.simulateTransaction(unsigned(account, c.call(fn)));
      if (!rpc.Api.isSimulationSuccess(s)) throw new Error(s.error);
      return scValToNative(s.result!.retval);
    };
    expect(await value(usdc, 'decimals')).toBe(7);
    expect(await value(usdc, 'name')).toBe(`USDC:${SANDBOX_ASSETS.USDC.issuer}`);
    expect(await value(usdc, 'symbol')).toBe('USDC');
    expect(await value(xlm, 'name')).toBe('native');
  });

  it('a transfer prepared, signed and sent by its payer moves the balances exactly and emits its CAP-67 event', async () => {
    const [alice, bob] = [await wallet(), await wallet()];
    const xlmBefore = await balanceOf(alice.publicKey(), 'native');
    const tx = await server.prepareTransaction(await transferTx(alice, alice, bob.publicKey(), 12_5000000n));
    // source-account authorization: the payer is the transaction's source
    const op = tx.operations[0] as unknown as { auth: xdr.SorobanAuthorizationEntry[] };
    expect(op.auth.map((e) => e.credentials.type)).toEqual(['sorobanCredentialsSourceAccount']);
    // the footprint: the contract's instance read-only, both trustlines read-write
    const fp = ((tx.toEnvelope().value as xdr.TransactionV1Envelope).tx.ext.value as xdr.SorobanTransactionData).resources.footprint;
    expect(fp.readOnly.map((k) => k.type)).toEqual(['contractData']);
    const holders = fp.readWrite.map((k) => (k.type === 'trustline' ? Address.account(k.trustLine.accountId.value.toXdrObject() as Uint8Array).toString() : k.type));
    expect(holders.sort()).toEqual([alice.publicKey(), bob.publicKey()].sort());
    const got = await sendSigned(tx, alice);
    expect(got.status).toBe(rpc.Api.GetTransactionStatus.SUCCESS);
    if (got.status !== rpc.Api.GetTransactionStatus.SUCCESS) return;

    expect(await balanceOf(alice.publicKey(), 'USDC')).toBe(237_5000000n);
    expect(await balanceOf(bob.publicKey(), 'USDC')).toBe(262_5000000n);
    // the fee charged: the inclusion fee and the resource fee declared, from the payer's XLM only
    const fee = BigInt(got.resultXdr.feeCharged.toString());
    expect(fee).toBe(100n + BigInt(tx.toEnvelope().type === 'envelopeTypeTx' ? (tx.toEnvelope().value as xdr.TransactionV1Envelope).tx.ext.value!.resourceFee : 0n));
    expect(await balanceOf(alice.publicKey(), 'native')).toBe(xlmBefore - fee);

    expect(transferEvents(got.resultMetaXdr)).toEqual([{
      contract: usdc.contractId(),
      topics: ['transfer', alice.publicKey(), bob.publicKey(), `USDC:${SANDBOX_ASSETS.USDC.issuer}`],
      data: 12_5000000n,
    }]);
    expect(got.returnValue?.type).toBe('scvVoid');
    // getTransaction's events (stellar-rpc 23): the fee event, and the operation's contract events
    expect(got.events?.transactionEventsXdr.map((e) => (e.event.body.value as xdr.ContractEventV0).topics.map((t) => scValToNative(t))))
      .toEqual([['fee', alice.publicKey()]]);
    expect(got.events?.contractEventsXdr.map((op) => op.map((e) => e.toXdr('base64'))))
      .toEqual([((got.resultMetaXdr.value as xdr.TransactionMetaV4).operations[0]!.events).map((e) => e.toXdr('base64'))]);
  });

  it('XLM moves through its SAC too, and a transfer to a muxed address carries to_muxed_id', async () => {
    const [alice, bob] = [await wallet(false), await wallet(false)];
    const before = await balanceOf(bob.publicKey(), 'native');
    const muxed = xdr.ScVal.scvAddress(xdr.ScAddress.scAddressTypeMuxedAccount(new xdr.MuxedEd25519Account({
      id: 42n, ed25519: Keypair.fromPublicKey(bob.publicKey()).rawPublicKey(),
    }))) as xdr.ScVal;
    const tx = await server.prepareTransaction(unsigned(await server.getAccount(alice.publicKey()),
      xlm.call('transfer', addr(alice), muxed, i128(3_0000000n))));
    const got = await sendSigned(tx, alice);
    expect(got.status).toBe(rpc.Api.GetTransactionStatus.SUCCESS);
    if (got.status !== rpc.Api.GetTransactionStatus.SUCCESS) return;
    expect(await balanceOf(bob.publicKey(), 'native')).toBe(before + 3_0000000n);
    expect(transferEvents(got.resultMetaXdr)).toEqual([{
      contract: xlm.contractId(), topics: ['transfer', alice.publicKey(), bob.publicKey(), 'native'],
      data: { amount: 3_0000000n, to_muxed_id: 42n },
    }]);
  });

  it('a transfer whose payer is not the source is authorized by an entry the payer signs; its nonce never serves twice', async () => {
    const [relayer, alice, bob] = [await wallet(false), await wallet(), await wallet()];
    const transfer = await relayedTransfer(relayer, alice, bob.publicKey(), 5_0000000n);
    expect(transfer.recorded.map((e) => e.credentials.type)).toEqual(['sorobanCredentialsAddress']);
    expect(transfer.readWrite.sort()).toEqual(['contractData', 'trustline', 'trustline']); // the payer's nonce, both trustlines
    expect(transfer.readOnly.sort()).toEqual(['account', 'contractData']); // the payer's account (its signers), the instance
    const until = (await server.getLatestLedger()).sequence + 100;

    // unsigned, or signed by someone else than the payer, it authorizes nothing
    expect((await transfer.send(transfer.recorded)).status).toBe(rpc.Api.GetTransactionStatus.FAILED);
    expect((await transfer.send(await transfer.sign(bob, until))).status).toBe(rpc.Api.GetTransactionStatus.FAILED);
    expect(await balanceOf(alice.publicKey(), 'USDC')).toBe(250_0000000n);

    const auth = await transfer.sign(alice, until);
    const got = await transfer.send(auth);
    expect(got.status).toBe(rpc.Api.GetTransactionStatus.SUCCESS);
    expect(await balanceOf(alice.publicKey(), 'USDC')).toBe(245_0000000n);
    expect(await balanceOf(bob.publicKey(), 'USDC')).toBe(255_0000000n);
    if (got.status === rpc.Api.GetTransactionStatus.SUCCESS) {
      expect(transferEvents(got.resultMetaXdr)[0]!.topics.slice(0, 3)).toEqual(['transfer', alice.publicKey(), bob.publicKey()]);
    }

    // Horizon lists the invocation in /payments of everyone whose balance it changed, with the change
    const hash = (got as { txHash: string }).txHash;
    for (const who of [alice, bob, relayer]) {
      const page = await (await fetch(`${net.horizon}/accounts/${who.publicKey()}/payments?order=desc&limit=5`)).json() as { _embedded: { records: any[] } };
      const record = page._embedded.records.find((r) => r.transaction_hash === hash);
      expect(record, who.publicKey()).toMatchObject({
        type: 'invoke_host_function', type_i: 24, source_account: relayer.publicKey(), function: 'HostFunctionTypeHostFunctionTypeInvokeContract',
        asset_balance_changes: [{
          asset_type: 'credit_alphanum4', asset_code: 'USDC', asset_issuer: SANDBOX_ASSETS.USDC.issuer,
          type: 'transfer', from: alice.publicKey(), to: bob.publicKey(), amount: '5.0000000',
        }],
      });
    }
    const all = await (await fetch(`${net.horizon}/payments?order=desc&limit=20`)).json() as { _embedded: { records: any[] } };
    expect(all._embedded.records.filter((r) => r.transaction_hash === hash)).toHaveLength(1);
    const effects = await (await fetch(`${net.horizon}/transactions/${hash}/effects`)).json() as { _embedded: { records: any[] } };
    expect(effects._embedded.records.map((e) => [e.type, e.account, e.asset_code, e.amount])).toEqual([
      ['account_debited', alice.publicKey(), 'USDC', '5.0000000'], ['account_credited', bob.publicKey(), 'USDC', '5.0000000'],
    ]);

    // the same signed entry again: its nonce is spent
    const replay = await transfer.send(auth);
    expect(replay.status).toBe(rpc.Api.GetTransactionStatus.FAILED);
    expect(await balanceOf(alice.publicKey(), 'USDC')).toBe(245_0000000n);
    expect(await balanceOf(bob.publicKey(), 'USDC')).toBe(255_0000000n);
  });

  it('a signature past its expiration ledger authorizes nothing', async () => {
    const [relayer, alice, bob] = [await wallet(false), await wallet(), await wallet()];
    const transfer = await relayedTransfer(relayer, alice, bob.publicKey(), 1_0000000n);
    const latest = (await server.getLatestLedger()).sequence;
    // valid through the latest ledger: the transaction applies in a later one
    expect((await transfer.send(await transfer.sign(alice, latest))).status).toBe(rpc.Api.GetTransactionStatus.FAILED);
    expect(await balanceOf(alice.publicKey(), 'USDC')).toBe(250_0000000n);
    // the same transfer signed to last: it goes through
    expect((await transfer.send(await transfer.sign(alice, latest + 50))).status).toBe(rpc.Api.GetTransactionStatus.SUCCESS);
    expect(await balanceOf(alice.publicKey(), 'USDC')).toBe(249_0000000n);
  });

  it('a footprint missing an entry the call touches fails the transaction, its fee charged', async () => {
    const [alice, bob] = [await wallet(), await wallet()];
    const prepared = await server.prepareTransaction(await transferTx(alice, alice, bob.publicKey(), 1_0000000n));
    const data = (prepared.toEnvelope().value as xdr.TransactionV1Envelope).tx.ext.value as xdr.SorobanTransactionData;
    const bobLine = (k: xdr.LedgerKey) => k.type === 'trustline' && k.trustLine.accountId.toXdr('base64') === Keypair.fromPublicKey(bob.publicKey()).xdrAccountId().toXdr('base64');
    const readWrite = data.resources.footprint.readWrite;
    expect(readWrite.some(bobLine)).toBe(true);
    const short = new SorobanDataBuilder(data).setReadWrite(readWrite.filter((k) => !bobLine(k))).build();
    const tx = TransactionBuilder.cloneFrom(prepared, { fee: prepared.fee, sorobanData: short, networkPassphrase: net.passphrase }).build();
    const xlmBefore = await balanceOf(alice.publicKey(), 'native');
    const got = await sendSigned(tx, alice);
    expect(got.status).toBe(rpc.Api.GetTransactionStatus.FAILED);
    expect(await balanceOf(bob.publicKey(), 'USDC')).toBe(250_0000000n);
    expect(await balanceOf(alice.publicKey(), 'USDC')).toBe(250_0000000n);
    expect(await balanceOf(alice.publicKey(), 'native')).toBeLessThan(xlmBefore);
  });

  it('instructions declared below what the call takes fail it with RESOURCE_LIMIT_EXCEEDED', async () => {
    const [alice, bob] = [await wallet(), await wallet()];
    const prepared = await server.prepareTransaction(await transferTx(alice, alice, bob.publicKey(), 1_0000000n));
    const data = (prepared.toEnvelope().value as xdr.TransactionV1Envelope).tx.ext.value as xdr.SorobanTransactionData;
    const starved = new SorobanDataBuilder(data).setResources(1000, data.resources.diskReadBytes, data.resources.writeBytes).build();
    const tx = TransactionBuilder.cloneFrom(prepared, { fee: prepared.fee, sorobanData: starved, networkPassphrase: net.passphrase }).build();
    const got = await sendSigned(tx, alice) as rpc.Api.GetFailedTransactionResponse;
    expect(got.status).toBe(rpc.Api.GetTransactionStatus.FAILED);
    const result = got.resultXdr.result;
    const op = result.type === 'txFailed' ? result.results[0] : undefined;
    expect(op?.type === 'opInner' && op.tr.type === 'invokeHostFunction' ? op.tr.invokeHostFunctionResult.type : op?.type)
      .toBe('invokeHostFunctionResourceLimitExceeded');
    expect(await balanceOf(bob.publicKey(), 'USDC')).toBe(250_0000000n);
  });

  it('a resource fee below the declared resources\' fee is refused at submission', async () => {
    const [alice, bob] = [await wallet(), await wallet()];
    const prepared = await server.prepareTransaction(await transferTx(alice, alice, bob.publicKey(), 1_0000000n));
    const data = (prepared.toEnvelope().value as xdr.TransactionV1Envelope).tx.ext.value as xdr.SorobanTransactionData;
    const cheap = new SorobanDataBuilder(data).setResourceFee(data.resourceFee - 1n).build();
    const tx = TransactionBuilder.cloneFrom(prepared, { fee: '100', sorobanData: cheap, networkPassphrase: net.passphrase }).build();
    tx.sign(alice);
    const sent = await server.sendTransaction(tx);
    expect(sent.status).toBe('ERROR');
    expect(sent.errorResult?.result.type).toBe('txSorobanInvalid');
    expect(await balanceOf(alice.publicKey(), 'USDC')).toBe(250_0000000n);
  });

  it('a transfer beyond the balance fails in simulation with the SAC\'s error, and on chain if sent anyway', async () => {
    const [alice, bob] = [await wallet(), await wallet()];
    const sim = await server.simulateTransaction(await transferTx(alice, alice, bob.publicKey(), 250_0000001n));
    expect(rpc.Api.isSimulationError(sim)).toBe(true);
    if (rpc.Api.isSimulationError(sim)) expect(sim.error).toContain('Error(Contract, #10)');
    await expect(server.prepareTransaction(await transferTx(alice, alice, bob.publicKey(), 250_0000001n))).rejects.toThrow();

    // the footprint and resources of a transfer that fits, on one that does not
    const fits = await server.prepareTransaction(await transferTx(alice, alice, bob.publicKey(), 1n));
    const data = (fits.toEnvelope().value as xdr.TransactionV1Envelope).tx.ext.value as xdr.SorobanTransactionData;
    const args = new xdr.InvokeContractArgs({
      contractAddress: new Address(usdc.contractId()).toScAddress(), functionName: 'transfer',
      args: [addr(alice), addr(bob), i128(250_0000001n)],
    });
    const sourceAuth = new xdr.SorobanAuthorizationEntry({
      credentials: xdr.SorobanCredentials.sorobanCredentialsSourceAccount(),
      rootInvocation: new xdr.SorobanAuthorizedInvocation({
        function: xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeContractFn(args), subInvocations: [],
      }),
    });
    const tooMuch = new TransactionBuilder(await server.getAccount(alice.publicKey()), { fee: fits.fee, networkPassphrase: net.passphrase })
      .setSorobanData(data).setTimeout(60)
      .addOperation(Operation.invokeHostFunction({ func: xdr.HostFunction.hostFunctionTypeInvokeContract(args), auth: [sourceAuth] })).build();
    const got = await sendSigned(tooMuch, alice);
    expect(got.status).toBe(rpc.Api.GetTransactionStatus.FAILED);
    expect(await balanceOf(alice.publicKey(), 'USDC')).toBe(250_0000000n);
    expect(await balanceOf(bob.publicKey(), 'USDC')).toBe(250_0000000n);
  });

  it('getEvents finds the transfers by contract, by topic, from a ledger or after a cursor', async () => {
    const [alice, bob, carol] = [await wallet(), await wallet(), await wallet()];
    const first = await sendSigned(await server.prepareTransaction(await transferTx(alice, alice, bob.publicKey(), 2_0000000n)), alice) as rpc.Api.GetSuccessfulTransactionResponse;
    await sendSigned(await server.prepareTransaction(await transferTx(carol, carol, bob.publicKey(), 7n, xlm)), carol);
    await sendSigned(await server.prepareTransaction(await transferTx(alice, alice, carol.publicKey(), 3n)), alice);
    const b64 = (v: xdr.ScVal) => v.toXdr('base64');
    const sym = b64(xdr.ScVal.scvSymbol('transfer'));
    const startLedger = first.ledger;
    const shown = (r: rpc.Api.GetEventsResponse) => r.events.map((e) => ({
      contract: e.contractId?.contractId(), topics: e.topic.map((t) => scValToNative(t)), value: scValToNative(e.value),
    }));

    const toBob = await server.getEvents({ startLedger, filters: [{ type: 'contract', topics: [[sym, '*', b64(addr(bob)), '*']] }] });
    expect(shown(toBob)).toEqual([
      { contract: usdc.contractId(), topics: ['transfer', alice.publicKey(), bob.publicKey(), `USDC:${SANDBOX_ASSETS.USDC.issuer}`], value: 2_0000000n },
      { contract: xlm.contractId(), topics: ['transfer', carol.publicKey(), bob.publicKey(), 'native'], value: 7n },
    ]);
    expect(toBob.events[0]!.txHash).toBe(first.txHash);
    expect(toBob.events[0]!.ledger).toBe(first.ledger);
    expect(toBob.events[0]!.id).toMatch(/^\d{19}-\d{10}$/);

    const usdcFromAlice = await server.getEvents({ startLedger, filters: [{ contractIds: [usdc.contractId()], topics: [[sym, b64(addr(alice)), '**']] }] });
    expect(shown(usdcFromAlice).map((e) => e.value)).toEqual([2_0000000n, 3n]);
    expect((await server.getEvents({ startLedger, filters: [{ contractIds: [xlm.contractId()], topics: [[sym, b64(addr(alice)), '**']] }] })).events).toEqual([]);

    // one at a time: the cursor of a full page is its last event; the next page starts after it
    const filters = [{ contractIds: [usdc.contractId()], topics: [[sym, b64(addr(alice)), '**']] }];
    const one = await server.getEvents({ startLedger, filters, limit: 1 });
    expect(one.events).toHaveLength(1);
    expect(one.cursor).toBe(one.events[0]!.id);
    const two = await server.getEvents({ cursor: one.cursor, filters, limit: 1 });
    expect(shown(two).map((e) => e.value)).toEqual([3n]);
    const rest = await server.getEvents({ cursor: two.cursor, filters, limit: 1 });
    expect(rest.events).toEqual([]);
    expect(rest.latestLedger).toBe((await server.getLatestLedger()).sequence);
  });

  it('classic payments emit their CAP-67 events too: in meta v4 (with the fee event) and through getEvents', async () => {
    const [alice, bob] = [await wallet(), await wallet()];
    const fresh = Keypair.random();
    const muxedBob = new MuxedAccount(new Account(bob.publicKey(), '0'), '7').accountId();
    const tx = new TransactionBuilder(await server.getAccount(alice.publicKey()), { fee: BASE_FEE, networkPassphrase: net.passphrase })
      .addOperation(Operation.createAccount({ destination: fresh.publicKey(), startingBalance: '5' }))
      .addOperation(Operation.payment({ destination: muxedBob, asset: new Asset('USDC', SANDBOX_ASSETS.USDC.issuer!), amount: '1.5' }))
      .setTimeout(60).build();
    const got = await sendSigned(tx, alice);
    expect(got.status).toBe(rpc.Api.GetTransactionStatus.SUCCESS);
    if (got.status !== rpc.Api.GetTransactionStatus.SUCCESS) return;
    const usdcName = `USDC:${SANDBOX_ASSETS.USDC.issuer}`;
    expect(transferEvents(got.resultMetaXdr)).toEqual([
      { contract: xlm.contractId(), topics: ['transfer', alice.publicKey(), fresh.publicKey(), 'native'], data: 5_0000000n },
      { contract: usdc.contractId(), topics: ['transfer', alice.publicKey(), bob.publicKey(), usdcName], data: { amount: 1_5000000n, to_muxed_id: 7n } },
    ]);
    const fee = (got.resultMetaXdr.value as xdr.TransactionMetaV4).events.map((e) => ({
      stage: e.stage.name, topics: (e.event.body.value as xdr.ContractEventV0).topics.map((t) => scValToNative(t)),
      data: scValToNative((e.event.body.value as xdr.ContractEventV0).data),
    }));
    expect(fee).toEqual([{ stage: 'transactionEventStageBeforeAllTxs', topics: ['fee', alice.publicKey()], data: 200n }]);

    const found = await server.getEvents({ startLedger: got.ledger, filters: [{ contractIds: [usdc.contractId()] }] });
    const mine = found.events.filter((e) => e.txHash === got.txHash);
    expect(mine.map((e) => ({ op: e.operationIndex, topics: e.topic.map((t) => scValToNative(t)) }))).toEqual([
      { op: 1, topics: ['transfer', alice.publicKey(), bob.publicKey(), usdcName] },
    ]);
  });

  it('contract.Client builds a SAC client from the instance getLedgerEntries serves, and its transfer goes through', async () => {
    const [alice, bob] = [await wallet(), await wallet()];
    interface Sac {
      balance(args: { id: string }): Promise<contract.AssembledTransaction<bigint>>;
      transfer(args: { from: string; to: string; amount: bigint }): Promise<contract.AssembledTransaction<null>>;
    }
    const client = await contract.Client.from({
      contractId: usdc.contractId(), rpcUrl: net.rpcUrl, networkPassphrase: net.passphrase, allowHttp: true,
      publicKey: alice.publicKey(), ...contract.basicNodeSigner(alice, net.passphrase),
    }) as unknown as Sac;
    expect((await client.balance({ id: alice.publicKey() })).result).toBe(250_0000000n);
    const tx = await client.transfer({ from: alice.publicKey(), to: bob.publicKey(), amount: 4_0000000n });
    const sent = await tx.signAndSend();
    expect(sent.getTransactionResponse?.status).toBe(rpc.Api.GetTransactionStatus.SUCCESS);
    expect(await balanceOf(alice.publicKey(), 'USDC')).toBe(246_0000000n);
    expect(await balanceOf(bob.publicKey(), 'USDC')).toBe(254_0000000n);
  });
});
