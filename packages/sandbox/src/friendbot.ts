/**
 * The sandbox's friendbot, answering as Stellar's Go friendbot does, so wallets, Stellar Lab and
 * `Horizon.Server#friendbot` work unchanged. Every grant is a real transaction signed by the
 * friendbot's genesis account and submitted to the ledger: it shows up in history like any other.
 *
 *   GET /sandbox/friendbot?addr=G…                 createAccount with 10,000 XLM (or, as testnet's
 *                                                 friendbot does, a 10,000 XLM payment to an
 *                                                 existing account holding less than that)
 *   GET /sandbox/friendbot?addr=G…&asset=USDC[&amount=250]   a USDC or EURC payment (default 1,000)
 *
 * Mounted at /sandbox/horizon/friendbot too: the SDK calls `${horizonUrl}/friendbot?addr=`.
 */
import {
  Account, Asset, Keypair, Operation, StrKey, TimeoutInfinite, TransactionBuilder, type xdr,
} from '@stellar/stellar-sdk';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Request, type Response, type Router } from 'express';
import { AmountError, fromStroops, toStroops } from './shared/money.js';
import { assetKey, toSdkAsset } from './shared/assets.js';
import { ensureFriendbot, type KeyPairInfo } from './genesis.js';
import { SERVICE_UNAVAILABLE } from './horizon/transactions.js';
import { badRequest, sendHal, sendProblem } from './horizon/render.js';
import type { SandboxLedger, SubmitOutcome } from './ledger.js';
import { SANDBOX_ASSETS } from './sandbox-assets.js';
import { transactionLinks } from './tx-resource.js';
import { BASE_FEE } from './validate.js';
import { NativeKeypair } from './shared/keypair.js';

/** Testnet friendbot's grant. */
export const STARTING_BALANCE = toStroops('10000');
const DEFAULT_ASSET_AMOUNT = toStroops('1000');
const MAX_ASSET_AMOUNT = toStroops('100000');
const ISSUED = { USDC: SANDBOX_ASSETS.USDC, EURC: SANDBOX_ASSETS.EURC };

type Grant =
  | { addr: string; asset: null }
  | { addr: string; asset: (typeof ISSUED)[keyof typeof ISSUED]; amount: bigint };

interface InvalidField {
  field: string;
  reason: string;
}

/** From the query, or a form body (Go's friendbot reads r.Form: both). */
function param(req: Request, name: string): string | undefined {
  const value = req.query[name] ?? (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

function parseAmount(raw: string | undefined): bigint | InvalidField {
  if (raw === undefined) return DEFAULT_ASSET_AMOUNT;
  try {
    const stroops = toStroops(raw);
    if (stroops <= MAX_ASSET_AMOUNT) return stroops;
    return { field: 'amount', reason: `at most ${fromStroops(MAX_ASSET_AMOUNT)} per call` };
  } catch (error) {
    if (error instanceof AmountError) return { field: 'amount', reason: `amount ${error.message}` };
    throw error;
  }
}

export function parseGrant(req: Request): Grant | InvalidField {
  const addr = param(req, 'addr');
  if (!addr) return { field: 'addr', reason: 'missing destination account address (addr=G…)' };
  if (!StrKey.isValidEd25519PublicKey(addr)) return { field: 'addr', reason: 'not a Stellar account address (G…, 56 characters)' };
  const code = param(req, 'asset');
  if (code === undefined) return { addr, asset: null };
  const asset = ISSUED[code.toUpperCase() as keyof typeof ISSUED];
  if (!asset) return { field: 'asset', reason: 'USDC or EURC (leave it out for XLM)' };
  const amount = parseAmount(param(req, 'amount'));
  return typeof amount === 'bigint' ? { addr, asset, amount } : amount;
}

function stateProblem(res: Response, detail: string): void {
  sendProblem(res, { type: 'bad_request', title: 'Bad Request', status: 400, detail });
}

/** Why this grant cannot be paid, in the words a wallet developer needs; null when it can. */
async function refusal(ledger: SandboxLedger, grant: Grant): Promise<string | null> {
  const account = await ledger.store.getAccount(grant.addr);
  if (!grant.asset) return account && account.balance >= STARTING_BALANCE ? 'account already funded to starting balance' : null;
  if (!account) return `account not found: create it first with friendbot?addr=${grant.addr} (no asset), then add a trustline to ${assetKey(grant.asset)}`;
  if (!await ledger.store.getTrustline(grant.addr, assetKey(grant.asset))) {
    return `the account has no trustline to ${assetKey(grant.asset)}: add one first (a changeTrust operation signed by the account), as on testnet`;
  }
  return null;
}

async function grantOperation(ledger: SandboxLedger, grant: Grant): Promise<xdr.Operation> {
  if (grant.asset) return Operation.payment({ destination: grant.addr, asset: toSdkAsset(grant.asset), amount: fromStroops(grant.amount) });
  if (await ledger.store.getAccount(grant.addr)) {
    return Operation.payment({ destination: grant.addr, asset: Asset.native(), amount: fromStroops(STARTING_BALANCE) });
  }
  return Operation.createAccount({ destination: grant.addr, startingBalance: fromStroops(STARTING_BALANCE) });
}

/**
 * Built from the friendbot's sequence number as stored now. Grants go one at a time (see
 * createFriendbotRouter): on a clocked ledger the friendbot account may have one transaction
 * pending, as any account on the network.
 */
async function submitGrant(ledger: SandboxLedger, friendbot: KeyPairInfo, grant: Grant): Promise<SubmitOutcome | null> {
  const source = await ledger.store.getAccount(friendbot.publicKey);
  if (!source) return null;
  const tx = new TransactionBuilder(new Account(friendbot.publicKey, source.seq.toString()), {
    fee: BASE_FEE.toString(), networkPassphrase: ledger.passphrase,
  }).addOperation(await grantOperation(ledger, grant)).setTimeout(TimeoutInfinite).build();
  tx.sign(NativeKeypair.fromSecret(friendbot.secret));
  return ledger.submitAndWait(tx.toXdr());
}

const FAILED_DETAIL =
  'The friendbot transaction failed when submitted to the sandbox ledger. The `extras.result_codes` field on this response contains further details.';

function sendOutcome(req: Request, res: Response, out: SubmitOutcome | null): void {
  if (out?.status === 'applied' && out.successful) {
    return sendHal(res, transactionLinks(out.resource, `${req.protocol}://${req.get('host')}/sandbox/horizon`));
  }
  if (!out) {
    return sendProblem(res, { type: 'friendbot_disabled', title: 'Friendbot is disabled', status: 403,
      detail: 'The sandbox friendbot account is missing; restart the server to recreate it.' });
  }
  if (out.status === 'try_again_later') return sendProblem(res, SERVICE_UNAVAILABLE);
  if (out.status === 'malformed') {
    return sendProblem(res, { type: 'transaction_malformed', title: 'Transaction Malformed', status: 400,
      detail: 'The friendbot built an envelope the sandbox ledger could not decode.', extras: { envelope_xdr: out.envelopeXdr } });
  }
  // The same problem POST /transactions answers (extras keys sorted, as Go marshals them).
  sendProblem(res, { type: 'transaction_failed', title: 'Transaction Failed', status: 400, detail: FAILED_DETAIL,
    extras: { envelope_xdr: out.envelopeXdr, result_codes: out.codes, result_xdr: out.resultXdr } });
}

export function createFriendbotRouter(ledger: SandboxLedger, friendbot: KeyPairInfo): Router {
  const router = express.Router();
  let queue: Promise<unknown> = Promise.resolve();
  const handler = (req: Request, res: Response) => {
    const grant = parseGrant(req);
    if ('field' in grant) return badRequest(res, grant.field, grant.reason);
    const turn = queue.then(async () => {
      // Checked on its turn: an earlier grant in the queue may have created the account.
      const refused = await refusal(ledger, grant);
      if (refused) return stateProblem(res, refused);
      let out = await submitGrant(ledger, friendbot, grant);
      // a clocked ledger shared by several servers: another server's grant from the friendbot
      // account may be waiting for this close; this one goes into the next
      for (let tries = 0; out?.status === 'try_again_later' && ledger.clock && tries < 3; tries++) {
        await new Promise((resolve) => setTimeout(resolve, ledger.clock!.seconds * 1000));
        out = await submitGrant(ledger, friendbot, grant);
      }
      sendOutcome(req, res, out);
    });
    queue = turn.catch(() => undefined);
    return turn;
  };
  // Go's friendbot answers GET and POST alike, reading addr from the query or a form.
  router.get('/', handler);
  router.post('/', express.urlencoded({ extended: false }), handler);
  return router;
}

/**
 * This ledger's friendbot on a loopback port of this process, for as long as `use` runs (its URL
 * given to `use`): the same real transaction from the friendbot's genesis account, for a host
 * that keeps the ledger in its own database and serves no friendbot of its own right now.
 */
export async function withFriendbot<T>(ledger: SandboxLedger, use: (url: string) => Promise<T>): Promise<T> {
  const app = express();
  app.use('/friendbot', createFriendbotRouter(ledger, await ensureFriendbot(ledger)));
  const server: Server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  try {
    return await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}/friendbot`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
