import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import express from 'express';
import {
  Asset, BASE_FEE, Horizon, Keypair, Memo, Networks, TransactionBuilder, type xdr,
} from '@stellar/stellar-sdk';
import {
  bootstrapSandbox, createSandboxHorizonRouter, SANDBOX_ASSETS, SandboxLedger, type SandboxKeys, type SandboxLedgerOptions,
} from '../../src/index.js';

export const USDC = new Asset('USDC', SANDBOX_ASSETS.USDC.issuer!);
export const EURC = new Asset('EURC', SANDBOX_ASSETS.EURC.issuer!);
export const PASSPHRASE = Networks.STANDALONE;

export interface Sandbox {
  db: Database.Database;
  ledger: SandboxLedger;
  keys: SandboxKeys;
  horizon: Horizon.Server;
  url: string;
  close: () => Promise<void>;
  treasury: Keypair;
}

/** A sandbox ledger with its Horizon; on `file`, one of several sharing that database, as servers do. */
export async function startSandbox(now?: () => number, options: Omit<SandboxLedgerOptions, 'now'> = {}, file = ':memory:'): Promise<Sandbox> {
  const db = new Database(file);
  const ledger = new SandboxLedger(db, { ...options, ...(now ? { now } : {}) });
  const keys = await bootstrapSandbox(ledger);
  const app = express();
  app.use('/sandbox/horizon', createSandboxHorizonRouter(ledger));
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sandbox/horizon`;
  const horizon = new Horizon.Server(url, { allowHttp: true });
  const close = async () => {
    await ledger.stop();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    db.close();
  };
  return { db, ledger, keys, horizon, url, close, treasury: Keypair.fromSecret(keys.treasury.secret) };
}


export interface BuildOptions {
  fee?: string;
  memo?: Memo;
  signers?: Keypair[];
  timeout?: number;
}

/** Loads the source's sequence from the sandbox Horizon, builds and signs a transaction. */
export async function buildTx(sb: Sandbox, source: Keypair, ops: xdr.Operation[], o: BuildOptions = {}) {
  const account = await sb.horizon.loadAccount(source.publicKey());
  const builder = new TransactionBuilder(account, { fee: o.fee ?? BASE_FEE, networkPassphrase: PASSPHRASE });
  for (const op of ops) builder.addOperation(op);
  if (o.memo) builder.addMemo(o.memo);
  const tx = builder.setTimeout(o.timeout ?? 60).build();
  tx.sign(...(o.signers ?? [source]));
  return tx;
}

/** A funded fresh account (faucet), optionally with a trustline-funded issued balance. */
export async function fundedAccount(sb: Sandbox, xlm = '100', extra?: { asset: Asset; amount: string }) {
  const kp = Keypair.random();
  await sb.ledger.fund(kp.publicKey(), SANDBOX_ASSETS.XLM, stroops(xlm));
  if (extra) await sb.ledger.fund(kp.publicKey(), { code: extra.asset.getCode(), issuer: extra.asset.getIssuer()! }, stroops(extra.amount));
  return kp;
}

export function stroops(amount: string): bigint {
  const [w = '0', f = ''] = amount.split('.');
  return BigInt(w) * 10_000_000n + BigInt(f.padEnd(7, '0'));
}

/** The Horizon problem body of a rejected submit (stellar-sdk throws BadResponseError). */
export async function submitExpectingFailure(sb: Sandbox, tx: Parameters<Horizon.Server['submitTransaction']>[0]) {
  try {
    await sb.horizon.submitTransaction(tx);
  } catch (err) {
    const data = (err as { response?: { data?: unknown; status?: number } }).response;
    return data as { status: number; data: { type: string; extras: { result_codes: Record<string, unknown>; result_xdr: string; envelope_xdr: string } } };
  }
  throw new Error('expected the submit to fail');
}

export function balanceOf(account: Horizon.AccountResponse, asset: Asset): string | undefined {
  const b = account.balances.find((x) =>
    asset.isNative() ? x.asset_type === 'native'
      : 'asset_code' in x && x.asset_code === asset.getCode() && x.asset_issuer === asset.getIssuer());
  return b?.balance;
}
