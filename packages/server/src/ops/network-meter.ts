/**
 * Counts every request the pipeline makes to its Stellar network, by method, with the failures
 * and the 429s among them: what the public Horizon's 3,600 requests an hour are spent on. A proxy
 * over the one StellarNetwork interface, so every path through it is counted, whatever network.
 * A watch (a stream) counts once when it opens; its records are not requests of ours. The ledger
 * follower's reads are counted by the network itself, per HTTP request (one read may page).
 */
import { problemOf } from '../stellar/horizon/errors.js';
import type { StellarNetwork } from '../stellar/index.js';
import type { Telemetry } from './telemetry.js';

const METHODS = new Set<keyof StellarNetwork>([
  'loadAccount', 'latestLedger', 'submitTransaction', 'submitTransactionAsync', 'getTransaction', 'networkPassphrase',
  'findStrictReceivePaths', 'findStrictSendPaths',
]);

function failureOf(error: unknown): 'rate_limited' | 'error' {
  const status = (error as { status?: unknown } | null)?.status;
  return (typeof status === 'number' ? status : problemOf(error).status) === 429 ? 'rate_limited' : 'error';
}

/** A network whose reads make several HTTP requests each counts them itself. */
interface SelfMetered {
  meterRequests(counter: (method: string, failure: 'rate_limited' | 'error' | null) => void): void;
  /** every request, not only the ledger reads (Stellar RPC: one method, one JSON-RPC request) */
  countsAllRequests?: boolean;
}

export function meteredNetwork<N extends StellarNetwork>(network: N, telemetry: Telemetry): N {
  const self = (network as Partial<SelfMetered>).meterRequests;
  // readLedgers is counted by the requests it makes
  if (self) self.call(network, (method, failure) => telemetry.networkRequest(method, failure));
  if ((network as Partial<SelfMetered>).countsAllRequests) return network;
  return new Proxy(network, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      // the network's own methods run on the network itself (private fields, its own calls uncounted)
      if (!METHODS.has(property as keyof StellarNetwork)) return (value as (...a: unknown[]) => unknown).bind(target);
      const method = String(property);
      return (...args: unknown[]) => {
        let result: unknown;
        try {
          result = (value as (...a: unknown[]) => unknown).apply(target, args);
        } catch (error) {
          telemetry.networkRequest(method, failureOf(error));
          throw error;
        }
        if (result instanceof Promise) {
          return result.then((v) => { telemetry.networkRequest(method, null); return v; },
            (error: unknown) => { telemetry.networkRequest(method, failureOf(error)); throw error; });
        }
        telemetry.networkRequest(method, null);
        return result;
      };
    },
  });
}
