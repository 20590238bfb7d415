/**
 * Two servers and a network between them: one serves a sandbox Stellar network (its Horizon,
 * friendbot and Stellar RPC over HTTP), the other runs the payment flow on FUNDKIT_STELLAR=custom
 * against it, the way it would against testnet. Wallets are plain stellar-sdk keypairs funded by
 * the friendbot, paying over the same HTTP as any wallet.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import {
  Address, Asset, Contract, Horizon, Keypair, Operation, TransactionBuilder, authorizeEntry, nativeToScVal, rpc, xdr, type Transaction,
} from '@stellar/stellar-sdk';
import { toStroops } from '../../src/lib/money.js';
import type { BootstrapFile } from '../../src/index.js';
import { SANDBOX_ASSETS, SANDBOX_PASSPHRASE } from '@fundkit/sandbox';
import { freePort, kill } from '../crash/child.js';
import { KEYS } from '../helpers/server.js';

export const USDC = new Asset('USDC', SANDBOX_ASSETS.USDC.issuer!);

/** The network settings a server on `custom` needs to reach a sandbox served at `sandboxUrl`. */
export function customEnv(sandboxUrl: string, api: 'rpc' | 'horizon'): Record<string, string> {
  return {
    FUNDKIT_STELLAR: 'custom',
    FUNDKIT_NETWORK_PASSPHRASE: SANDBOX_PASSPHRASE,
    FUNDKIT_ASSETS: `USDC:${SANDBOX_ASSETS.USDC.issuer},EURC:${SANDBOX_ASSETS.EURC.issuer}`,
    FUNDKIT_FRIENDBOT_URL: `${sandboxUrl}/sandbox/friendbot`,
    FUNDKIT_HORIZON_URL: `${sandboxUrl}/sandbox/horizon`,
    ...(api === 'rpc' ? { FUNDKIT_RPC_URL: `${sandboxUrl}/sandbox/rpc`, FUNDKIT_STELLAR_API: 'rpc' } : { FUNDKIT_STELLAR_API: 'horizon' }),
  };
}

export class Wallets {
  readonly horizon: Horizon.Server;
  private readonly friendbot: string;

  /** A sandbox server's URL (its /sandbox/horizon and /sandbox/friendbot), or a network's Horizon and friendbot. */
  constructor(at: string | { horizonUrl: string; friendbotUrl: string }) {
    const urls = typeof at === 'string' ? { horizonUrl: `${at}/sandbox/horizon`, friendbotUrl: `${at}/sandbox/friendbot` } : at;
    this.horizon = new Horizon.Server(urls.horizonUrl, { allowHttp: true });
    this.friendbot = urls.friendbotUrl;
  }

  /** 10,000 XLM from the friendbot, and (usdc) a trustline to USDC plus that much of it. */
  async fund(keypair: Keypair, usdc?: string): Promise<void> {
    const created = await fetch(`${this.friendbot}?addr=${keypair.publicKey()}`);
    if (!created.ok) throw new Error(`friendbot: ${created.status} ${await created.text()}`);
    if (usdc === undefined) return;
    await this.submit(keypair, [Operation.changeTrust({ asset: USDC })]);
    if (usdc === '0') return;
    const paid = await fetch(`${this.friendbot}?addr=${keypair.publicKey()}&asset=USDC&amount=${usdc}`);
    if (!paid.ok) throw new Error(`friendbot USDC: ${paid.status} ${await paid.text()}`);
  }

  /**
   * `payers` funded at once, each with 10 XLM, a trustline to USDC and `usdc` of it, by one
   * transaction of a wallet the friendbot funded: one ledger, where a friendbot grant each (one a
   * ledger, in turn, as on testnet) would take three ledgers a payer.
   */
  async fundMany(payers: Keypair[], usdc: string): Promise<void> {
    const funder = Keypair.random();
    await this.fund(funder, (Number(usdc) * payers.length).toFixed(7));
    await this.submit(funder, payers.flatMap((payer) => [
      Operation.createAccount({ destination: payer.publicKey(), startingBalance: '10' }),
      Operation.changeTrust({ asset: USDC, source: payer.publicKey() }),
      Operation.payment({ destination: payer.publicKey(), asset: USDC, amount: usdc }),
    ]), payers);
  }

  async submit(keypair: Keypair, operations: ReturnType<typeof Operation.payment>[], cosigners: Keypair[] = []): Promise<string> {
    const account = await this.horizon.loadAccount(keypair.publicKey());
    const builder = new TransactionBuilder(account, { fee: '1000', networkPassphrase: SANDBOX_PASSPHRASE }).setTimeout(60);
    for (const op of operations) builder.addOperation(op);
    const tx = builder.build();
    tx.sign(keypair, ...cosigners);
    return (await this.horizon.submitTransaction(tx)).hash;
  }

  async pay(payer: Keypair, destination: string, amount: string): Promise<string> {
    return this.submit(payer, [Operation.payment({ destination, asset: USDC, amount })]);
  }

  /** What `address` holds of USDC, as the network says. */
  async usdc(address: string): Promise<string> {
    const account = await this.horizon.loadAccount(address);
    return account.balances.find((b) => 'asset_code' in b && b.asset_code === 'USDC')?.balance ?? '0';
  }
}

/** A stellar-sdk wallet paying by the USDC contract's `transfer`, relayed by another account. */
export class SorobanWallet {
  private readonly rpc: rpc.Server;
  private readonly usdc = new Contract(USDC.contractId(SANDBOX_PASSPHRASE));

  constructor(rpcUrl: string, private readonly relayer?: Keypair) {
    this.rpc = new rpc.Server(rpcUrl, { allowHttp: true });
  }

  /**
   * `payer` moves `amount` USDC to `to`; `relayer` is the transaction's source and fee payer (the
   * payer itself: its source-account authorization, no signed entry). Its hash once applied.
   */
  async transfer(payer: Keypair, to: string, amount: string, relayer = this.relayer ?? payer): Promise<string> {
    const args = [new Address(payer.publicKey()).toScVal(), new Address(to).toScVal(), nativeToScVal(toStroops(amount), { type: 'i128' })];
    const call = this.usdc.call('transfer', ...args);
    // recording mode: the simulation says which authorizations the call needs
    const simulated = await this.rpc.simulateTransaction(await this.build(relayer, call));
    if (!rpc.Api.isSimulationSuccess(simulated)) throw new Error(`simulation failed: ${JSON.stringify(simulated)}`);
    const { sequence } = await this.rpc.getLatestLedger();
    const signed = await Promise.all((simulated.result?.auth ?? []).map((entry) => authorizeEntry(entry, payer, sequence + 20, SANDBOX_PASSPHRASE)));
    const op = Operation.invokeContractFunction({ contract: this.usdc.contractId(), function: 'transfer', args, auth: signed });
    // enforcing mode now: the footprint holds the payer's nonce
    const prepared = await this.rpc.prepareTransaction(await this.build(relayer, op));
    prepared.sign(relayer);
    const sent = await this.rpc.sendTransaction(prepared);
    if (sent.status !== 'PENDING') throw new Error(`sendTransaction: ${JSON.stringify(sent)}`);
    const done = await this.rpc.pollTransaction(sent.hash, { attempts: 60, sleepStrategy: () => 250 });
    if (done.status !== rpc.Api.GetTransactionStatus.SUCCESS) throw new Error(`transaction ${sent.hash}: ${done.status}`);
    return sent.hash;
  }

  private async build(relayer: Keypair, op: xdr.Operation): Promise<Transaction> {
    const source = await this.rpc.getAccount(relayer.publicKey());
    return new TransactionBuilder(source, { fee: '1000', networkPassphrase: SANDBOX_PASSPHRASE }).addOperation(op).setTimeout(60).build();
  }
}

/** The application the payment server starts with, settling to an account that exists on the network. */
export function bootstrapWith(settlementAddress: string): BootstrapFile {
  return {
    applications: [{ name: 'Over the wire', settlement_address: settlementAddress, secret_keys: [KEYS.alphaSecretTest], publishable_keys: [KEYS.alphaPublishableTest] }],
  };
}

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const CLI = "import('./packages/server/src/cli/index.ts').then(async (m) => { process.exitCode = await m.runCli(process.argv.slice(1)); })";

/** `fundkit <args>` from source, as its own process. */
export function fundkitCli(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', '-e', CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

export interface SandboxProcess {
  /** its root: Horizon at `/`, RPC at `/rpc`, friendbot at `/friendbot` (and the /sandbox/* paths a server in sandbox mode serves) */
  url: string;
  process: ChildProcess;
  /** the network's latest closed ledger, from its Horizon root */
  tip(): Promise<number>;
  stop(): Promise<void>;
}

/** `fundkit sandbox --ledger-seconds N --db <dir>/network.db` as its own process, once its banner says it is ready. */
export async function startSandboxProcess(dir: string, ledgerSeconds: number): Promise<SandboxProcess> {
  const port = await freePort();
  const child = fundkitCli(['sandbox', '--port', String(port), '--ledger-seconds', String(ledgerSeconds), '--db', join(dir, 'network.db')], { FUNDKIT_DATA_DIR: dir });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => { out += c.toString(); if (out.includes('ready in')) resolve(); });
    child.once('exit', (code) => reject(new Error(`fundkit sandbox exited (${code}): ${out}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url, process: child,
    tip: async () => ((await (await fetch(`${url}/`)).json()) as { history_latest_ledger: number }).history_latest_ledger,
    stop: () => kill({ process: child, url, stderr: [] }, 'SIGTERM'),
  };
}
