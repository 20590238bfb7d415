export { migrateSandbox } from './schema.js';
export { SandboxLedger, SANDBOX_PASSPHRASE, type SandboxLedgerOptions, type SubmitOutcome } from './ledger.js';
export { bootstrapSandbox, DEFAULT_RATES, type BootstrapOptions, type SandboxKeys } from './genesis.js';
export { SandboxNetwork } from './network.js';
export { SANDBOX_ASSETS } from './sandbox-assets.js';
export { createSandboxHorizonRouter } from './horizon/router.js';
export { FaucetError } from './faucet.js';
export { BASE_RESERVE } from './accounts.js';
