/**
 * The embedded sandbox ledger. Wiring, in the server:
 *   const ledger = new SandboxLedger(db);          // its tables: migration 020 (made here if no migration ran)
 *   const keys = bootstrapSandbox(ledger);         // idempotent: issuers, market maker, treasury, friendbot
 *   app.use('/sandbox/friendbot', createFriendbotRouter(ledger, keys.friendbot)); // before Horizon's
 *   app.use('/sandbox/horizon', createSandboxHorizonRouter(ledger));
 *   app.use('/sandbox/rpc', createSandboxRpcRouter(ledger, { friendbotUrl })); // Stellar RPC (JSON-RPC 2.0)
 *   const network = new SandboxNetwork(ledger, `${publicUrl}/sandbox/horizon`);
 *   ledger.fund(address, SANDBOX_ASSETS.USDC, 25_0000000n);  // faucet (test helpers)
 */
export { ensureSandboxTables, migrateSandbox } from './schema.js';
export { SandboxLedger, SANDBOX_PASSPHRASE, type SandboxLedgerOptions, type SubmitOutcome } from './ledger.js';
export { bootstrapSandbox, ensureFriendbot, DEFAULT_RATES, type BootstrapOptions, type KeyPairInfo, type SandboxKeys } from './genesis.js';
export { SandboxNetwork } from './network.js';
export { SANDBOX_ASSETS } from './sandbox-assets.js';
export { createSandboxHorizonRouter } from './horizon/router.js';
export { FaucetError } from './faucet.js';
export { BASE_RESERVE } from './accounts.js';
export { createFriendbotRouter } from './friendbot.js';
export { createSandboxRpcRouter, type SandboxRpcOptions } from './rpc/router.js';
export { startStandaloneSandbox, type StandaloneOptions, type StandaloneSandbox } from './standalone.js';
