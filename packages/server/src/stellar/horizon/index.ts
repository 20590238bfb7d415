/**
 * The Horizon adapter: StellarNetwork for testnet and pubnet.
 *   const network = createHorizonNetwork({ kind: 'testnet', horizonUrl: config.horizonUrl });
 */
export { createHorizonNetwork, HorizonNetwork, type HorizonNetworkOptions } from './network.js';
export { HorizonRequestError } from './errors.js';
export { DEFAULT_TIMING, PaymentWatcher, type RecordHandler, type WatcherHooks, type WatchTiming } from './watcher.js';
