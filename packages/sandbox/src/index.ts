/**
 * @fundkit/sandbox: a local Stellar network (a simulated ledger with Horizon, Stellar RPC and a
 * friendbot over HTTP) that starts in well under a second, in this process, in a worker thread
 * or as its own process (the `fundkit-sandbox` bin).
 *
 *   const net = await startSandbox();                 // port 0, a throwaway in-memory chain
 *   new Horizon.Server(net.url, { allowHttp: true }); new rpc.Server(net.rpcUrl, { allowHttp: true });
 *   await fetch(`${net.friendbotUrl}?addr=${address}`);
 *   await net.close();
 *
 * Embedding the ledger (how the Fundkit server keeps a chain in its own database):
 *   const ledger = new SandboxLedger(sql);           // any executor with the `Sql` interface, or a better-sqlite3 connection
 *   const keys = await bootstrapSandbox(ledger);     // idempotent: issuers, market maker, treasury, friendbot
 *   app.use('/friendbot', createFriendbotRouter(ledger, keys.friendbot));
 *   app.use('/horizon', createSandboxHorizonRouter(ledger));
 *   app.use('/rpc', createSandboxRpcRouter(ledger, { friendbotUrl }));
 */
export { startStandaloneSandbox, startSandbox, type StandaloneOptions, type SandboxOptions, type StandaloneSandbox } from './standalone.js';
export { startSandboxThread, type SandboxThread, type SandboxThreadData, type SandboxThreadMessage, type SandboxThreadOptions } from './thread.js';
export { ensureSandboxTables, migrateSandbox } from './schema.js';
export { SandboxLedger, SANDBOX_PASSPHRASE, type SandboxLedgerOptions, type SubmitOutcome } from './ledger.js';
export { bootstrapSandbox, ensureFriendbot, DEFAULT_RATES, type BootstrapOptions, type KeyPairInfo, type SandboxKeys } from './genesis.js';
export { SANDBOX_ASSETS } from './sandbox-assets.js';
export { createSandboxHorizonRouter } from './horizon/router.js';
export { FaucetError } from './faucet.js';
export { createFaucetRouter } from './faucet-router.js';
export { BASE_RESERVE } from './accounts.js';
export { createFriendbotRouter, withFriendbot } from './friendbot.js';
export { createSandboxRpcRouter, type SandboxRpcOptions } from './rpc/router.js';
export { sandboxApiPaths } from './api-paths.js';
export { withLinks } from './records.js';
export { transactionLinks, transactionResource, type TxFacts } from './tx-resource.js';
export { txResult } from './results-xdr.js';
export { SqliteSql, SANDBOX_QUERIES, type Sql, type SqlSource, type Prepared } from './sql/sql.js';
export type { Dialect } from './sql/dialect.js';
export type { AssetRef } from './shared/assets.js';
export type { PathQuote, ResultCodes, StrictReceiveQuery, StrictSendQuery, SupportedAsset } from './shared/types.js';
export type * from './shared/horizon-types.js';
export { serveSandbox, type ServeOptions, type ServeIo } from './cli.js';
