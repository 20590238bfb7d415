import type { Mode } from '../app-api.js';

export type ServerNetwork = 'sandbox' | 'testnet' | 'pubnet' | 'custom';

/**
 * The line under the header: the mode, and the network the server is on (GET /v1) — only pubnet
 * moves real money, so only there may a page say so. Unknown (not loaded yet): the mode alone.
 */
export function networkNote(network: ServerNetwork | null, mode: Mode): string {
  const label = mode === 'live' ? 'Live mode' : 'Test mode';
  // a server serves live keys on pubnet only, test keys everywhere else (DESIGN §5)
  if (network === 'pubnet') {
    return mode === 'live' ? 'Live mode: real payments on the Stellar public network.' : 'Test mode: this server is on the Stellar public network and serves live keys only.';
  }
  if (network !== null && mode === 'live') return `Live mode: this server is on ${NETWORK_NAMES[network]} and serves test keys only.`;
  switch (network) {
    case 'sandbox':
      return 'Test mode: sandbox data, no real money.';
    case 'testnet':
      return 'Test mode on the Stellar test network: testnet money, no real value.';
    case 'custom':
      return "Test mode on a custom Stellar network (the one this server's operator configured).";
    default:
      return `${label}.`;
  }
}

const NETWORK_NAMES: Record<Exclude<ServerNetwork, 'pubnet'>, string> = {
  sandbox: 'the sandbox (no real money)',
  testnet: 'the Stellar test network',
  custom: 'a custom Stellar network',
};
