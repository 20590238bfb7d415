/** The Horizon-compatible router the server mounts at /sandbox/horizon. */
import express, { type Request, type Response, type Router } from 'express';
import type { SandboxLedger } from '../ledger.js';
import { accountResource } from './account.js';
import { listAccounts } from './accounts-list.js';
import { serveCollection } from './collection.js';
import { historyCollection, ledgerLinks, ledgersCollection, type HistoryKind, type Scope } from './history.js';
import { accountParam, ledgerParam, operationParam, txHashParam } from './params.js';
import { strictReceivePaths, strictSendPaths } from './paths.js';
import { baseUrl, notFound, sendHal } from './render.js';
import { feeStats, root } from './root.js';
import { getTransaction, submitTransaction, submitTransactionAsync } from './transactions.js';
import { withLinks } from '../records.js';

const KINDS: HistoryKind[] = ['transactions', 'operations', 'payments', 'effects'];

type ScopeOf = (req: Request, res: Response) => Scope | undefined;

/** GET {prefix}/{kind} for each history kind, scoped by what the path names. */
function mountHistory(router: Router, ledger: SandboxLedger, prefix: string, scopeOf: ScopeOf, kinds = KINDS): void {
  for (const kind of kinds) {
    router.get(`${prefix}/${kind}`, async (req, res) => {
      const scope = scopeOf(req, res);
      if (scope) await serveCollection(ledger, req, res, historyCollection(ledger, kind, scope) as never);
    });
  }
}

function mountSingles(router: Router, ledger: SandboxLedger): void {
  router.get('/accounts/:id', async (req, res) => {
    const id = accountParam(req, res);
    if (!id) return;
    const account = await accountResource(ledger.store, id, baseUrl(req));
    if (!account) return notFound(res);
    sendHal(res, account);
  });
  router.get('/operations/:id', async (req, res) => {
    const id = operationParam(req, res);
    if (id === undefined) return;
    const op = await ledger.getOperation(id);
    if (!op) return notFound(res);
    sendHal(res, withLinks(op, baseUrl(req)));
  });
  router.get('/ledgers/:seq', async (req, res) => {
    const seq = ledgerParam(req, res);
    if (seq === undefined) return;
    const l = await ledger.getLedger(seq);
    if (!l) return notFound(res);
    sendHal(res, ledgerLinks(l, baseUrl(req)));
  });
}

export function createSandboxHorizonRouter(ledger: SandboxLedger): Router {
  const router = express.Router();
  // as Horizon sets on every answer (stellar/go's LastLedgerHeaderName): read before the answer's
  // records, so every ledger up to it is complete in them (the ledger follower relies on it)
  router.use((_req, res, next) => {
    ledger.ledgerSequence().then((seq) => { res.setHeader('Latest-Ledger', String(seq)); next(); }, next);
  });
  router.get('/', root(ledger));
  router.get('/fee_stats', feeStats(ledger));
  router.get('/accounts', listAccounts(ledger));
  mountSingles(router, ledger);
  mountHistory(router, ledger, '', () => ({}));
  mountHistory(router, ledger, '/accounts/:id', (req, res) => {
    const account = accountParam(req, res);
    return account ? { account } : undefined;
  });
  mountHistory(router, ledger, '/ledgers/:seq', (req, res) => {
    const seq = ledgerParam(req, res);
    return seq === undefined ? undefined : { ledger: seq };
  });
  // A transaction's own operations are listed even when it failed, as Horizon does.
  mountHistory(router, ledger, '/transactions/:hash', (req, res) => {
    const txHash = txHashParam(req, res);
    return txHash ? { txHash, includeFailed: true } : undefined;
  }, ['operations', 'payments', 'effects']);
  mountHistory(router, ledger, '/operations/:id', (req, res) => {
    const operation = operationParam(req, res);
    return operation === undefined ? undefined : { operation };
  }, ['effects']);
  router.get('/ledgers', (req, res) => serveCollection(ledger, req, res, ledgersCollection(ledger)));
  // stellar-sdk posts form-encoded `tx=`; a JSON body is accepted too.
  router.post('/transactions', express.urlencoded({ extended: false }), express.json(), submitTransaction(ledger));
  router.post('/transactions_async', express.urlencoded({ extended: false }), express.json(), submitTransactionAsync(ledger));
  router.get('/transactions/:hash', (req, res, next) => (txHashParam(req, res) ? next() : undefined), getTransaction(ledger));
  router.get('/paths/strict-receive', strictReceivePaths(ledger));
  router.get('/paths/strict-send', strictSendPaths(ledger));
  router.use((_req, res) => notFound(res));
  return router;
}
