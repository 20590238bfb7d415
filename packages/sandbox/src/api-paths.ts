/**
 * The paths a Fundkit server in sandbox mode serves for its sandbox network: /sandbox/horizon,
 * /sandbox/rpc and /sandbox/friendbot (also at /sandbox/horizon/friendbot, where the SDK's
 * `server.friendbot(addr)` looks, mounted before Horizon so the more specific path wins). Served
 * by the server itself when the ledger runs in its process, and by the sandbox's own HTTP
 * (standalone.ts), to which a server forwards them unchanged otherwise.
 */
import express, { type Router } from 'express';
import type { SandboxLedger } from './ledger.js';
import { createSandboxRpcRouter } from './rpc/router.js';

export function sandboxApiPaths(ledger: SandboxLedger, friendbot: Router, horizon: Router): Router {
  const router = express.Router();
  router.use('/sandbox/friendbot', friendbot);
  router.use('/sandbox/horizon/friendbot', friendbot);
  router.use('/sandbox/horizon', horizon);
  router.use('/sandbox/rpc', createSandboxRpcRouter(ledger, { friendbotUrl: (req) => `${req.protocol}://${req.get('host')}/sandbox/friendbot` }));
  return router;
}
