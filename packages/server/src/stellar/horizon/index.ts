/**
 * The Horizon adapter: StellarNetwork over a Horizon (testnet, pubnet or a custom network).
 *   const network = createHorizonNetwork({ profile: config.network });
 */
export { createHorizonNetwork, HorizonNetwork, type HorizonNetworkOptions } from './network.js';
export { HorizonRequestError } from './errors.js';
