/** The Horizon-compatible router the server mounts at /sandbox/horizon. */
import express, { type Router } from 'express';
import type { SandboxLedger } from '../ledger.js';
import { accountResource } from './account.js';
import { strictReceivePaths, strictSendPaths } from './paths.js';
import { accountPayments } from './payments.js';
import { baseUrl, notFound, sendHal } from './render.js';
import { feeStats, root } from './root.js';
import { getTransaction, submitTransaction } from './transactions.js';

export function createSandboxHorizonRouter(ledger: SandboxLedger): Router {
  const router = express.Router();
  router.get('/', root(ledger));
  router.get('/fee_stats', feeStats(ledger));
  router.get('/accounts/:id', (req, res) => {
    const account = accountResource(ledger.store, String(req.params.id), baseUrl(req));
    if (!account) return notFound(res);
    sendHal(res, account);
  });
  router.get('/accounts/:id/payments', accountPayments(ledger));
  // stellar-sdk posts form-encoded `tx=`; a JSON body is accepted too.
  router.post('/transactions', express.urlencoded({ extended: false }), express.json(), submitTransaction(ledger));
  router.get('/transactions/:hash', getTransaction(ledger));
  router.get('/paths/strict-receive', strictReceivePaths(ledger));
  router.get('/paths/strict-send', strictSendPaths(ledger));
  router.use((_req, res) => notFound(res));
  return router;
}
