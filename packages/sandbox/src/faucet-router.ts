/**
 * The sandbox's privileged faucet, a Fundkit extension beside quickstart's friendbot: writes no
 * transaction could make on a real network, for the server that uses this sandbox (its treasury's
 * float, a merchant's settlement address made to exist, the test helpers' payers). The friendbot
 * stays what wallets use; this is what a Fundkit server in sandbox mode asks of its sandbox.
 *
 *   POST /sandbox/faucet  {"addr":"G…","asset":"USDC","amount":"25"}   credits (creating the
 *                         account with 1 XLM and the trustline as needed, reserves paid)
 *   POST /sandbox/faucet  {"addr":"G…","asset":"USDC:G…"}              no amount: the account and
 *                         the trustline exist afterwards, nothing more (idempotent)
 *
 * `asset` is XLM, USDC, EURC or CODE:ISSUER (any issuer: a lookalike asset for wrong-asset tests).
 * Answers 200 {"addr","asset","amount","ledger"}, or Horizon's problem JSON on a bad field.
 */
import { StrKey } from '@stellar/stellar-sdk';
import express, { type Request, type Response, type Router } from 'express';
import { AmountError, toStroops } from './shared/money.js';
import { assetKey } from './shared/assets.js';
import { FaucetError } from './faucet.js';
import { badRequest } from './horizon/render.js';
import type { SandboxLedger } from './ledger.js';
import { parseAsset } from './sandbox-assets.js';

async function handle(ledger: SandboxLedger, req: Request, res: Response): Promise<void> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const addr = body.addr;
  if (typeof addr !== 'string' || !StrKey.isValidEd25519PublicKey(addr)) return badRequest(res, 'addr', 'a Stellar account address (G…, 56 characters)');
  const asset = parseAsset(body.asset);
  if (!asset) return badRequest(res, 'asset', 'XLM, USDC, EURC or CODE:ISSUER');
  let amount = 0n;
  if (body.amount !== undefined) {
    try {
      amount = toStroops(String(body.amount));
    } catch (error) {
      if (error instanceof AmountError) return badRequest(res, 'amount', `amount ${error.message}`);
      throw error;
    }
  }
  const key = assetKey(asset);
  try {
    if (amount > 0n) await ledger.fund(addr, asset, amount);
    else await ledger.ensure(addr, asset);
  } catch (error) {
    if (error instanceof FaucetError) return badRequest(res, 'amount', error.message);
    throw error;
  }
  res.json({ addr, asset: key === 'native' ? 'XLM' : key, amount: String(body.amount ?? '0'), ledger: await ledger.ledgerSequence() });
}

export function createFaucetRouter(ledger: SandboxLedger): Router {
  const router = express.Router();
  router.post('/', express.json({ limit: '4kb' }), (req, res, next) => {
    handle(ledger, req, res).catch(next);
  });
  return router;
}
