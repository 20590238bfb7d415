import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent } from 'undici';
import type { Environment } from '../../domain/environment.js';

/**
 * Where webhooks may go. Outside the sandbox a delivery must never reach the server's own host or
 * its network: an API key could otherwise make the server call internal services and read their
 * answers back from the deliveries' response excerpts. Only globally routable unicast addresses
 * pass; an operator may open named ranges (FUNDKIT_WEBHOOK_ALLOW_PRIVATE).
 */

/** Resolves a host name to every address it has (dns.lookup with all: true); tests inject one. */
export type HostResolver = (hostname: string) => Promise<LookupAddress[]>;

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** ipaddr.js range names, in the words a developer reads in an error. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified address', broadcast: 'the broadcast address', multicast: 'a multicast address',
  linkLocal: 'a link-local address', loopback: 'a loopback address', carrierGradeNat: 'a CGNAT address (100.64.0.0/10)',
  private: 'a private address', uniqueLocal: 'a private (unique local) address', ipv4Mapped: 'an IPv4-mapped address',
  rfc6145: 'an IPv4-translated address', rfc6052: 'a NAT64 address', '6to4': 'a 6to4 address', teredo: 'a Teredo address',
  benchmarking: 'a benchmarking address', deprecatedSiteLocal: 'a site-local address',
};

const BENCHMARKING_V4: Cidr = ipaddr.parseCIDR('198.18.0.0/15');

/** Parses FUNDKIT_WEBHOOK_ALLOW_PRIVATE's CIDR list; throws naming the first bad entry. */
export function parseAllowedRanges(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const ranges = raw.split(',').map((part) => part.trim()).filter(Boolean);
  for (const range of ranges) {
    if (!ipaddr.isValidCIDR(range)) throw new Error(`"${range}" is not a CIDR range such as 10.0.0.0/8 or fd00::/8`);
  }
  return ranges;
}

function rangeWords(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  const range = address.range();
  if (address.kind() === 'ipv4' && range === 'reserved' && address.match(BENCHMARKING_V4)) return 'a benchmarking address (198.18.0.0/15)';
  return RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
}

export class TargetPolicy {
  private readonly allowed: Cidr[];

  /**
   * @param openInTest the sandbox: test keys may deliver anywhere (local receivers, `fundkit listen`)
   * @param allowedRanges CIDR ranges the operator lets deliveries reach
   */
  constructor(private readonly openInTest: boolean, allowedRanges: string[], private readonly resolve: HostResolver = systemResolver) {
    this.allowed = allowedRanges.map((range) => ipaddr.parseCIDR(range));
  }

  private readonly targets = new Map<boolean, DeliveryTarget>();

  /** No check at all: the sandbox's test environment. */
  isOpen(environment: Environment): boolean {
    return this.openInTest && environment === 'test';
  }

  /** How deliveries of this environment connect: guarded (every address checked) or open. */
  forEnvironment(environment: Environment): DeliveryTarget {
    const open = this.isOpen(environment);
    let target = this.targets.get(open);
    if (!target) {
      target = open
        ? { refusal: () => null, dispatcher: new Agent({ connect: { lookup: this.resolvingLookup(false) } }) }
        : { refusal: (hostname) => this.hostRefusal(hostname), dispatcher: new Agent({ connect: { lookup: this.resolvingLookup(true) } }) };
      this.targets.set(open, target);
    }
    return target;
  }

  /** Closes the clients' idle connections (server shutdown). */
  async close(): Promise<void> {
    await Promise.all([...this.targets.values()].map((target) => target.dispatcher.close()));
    this.targets.clear();
  }

  /** Why an address may not be delivered to, or null if it may (public unicast, or an allowed range). */
  refusal(address: string): string | null {
    const parsed = ipaddr.parse(address);
    if (this.allowed.some(([base, bits]) => base.kind() === parsed.kind() && parsed.match(base, bits))) return null;
    if (parsed.range() === 'unicast') return null;
    return `${address} is ${rangeWords(parsed)}`;
  }

  /** Why a URL's host may not be registered: a literal address refused, or a name that is loopback by definition. */
  hostRefusal(hostname: string): string | null {
    const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
    if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is a loopback name`;
    return isIP(host) ? this.refusal(host) : null;
  }

  /**
   * A `lookup` for net.connect (an undici Agent's `connect.lookup`). Guarded, it refuses the
   * connection if any address the name resolves to is refused, so the check is on the addresses
   * actually connected to (a name rebound to an internal address after registration is caught).
   * Literal addresses never reach a lookup: the caller checks them with hostRefusal.
   */
  private resolvingLookup(guarded: boolean) {
    return (hostname: string, options: LookupOptions, callback: (...args: any[]) => void): void => {
      this.resolve(hostname).then((addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
        if (wanted.length === 0) throw Object.assign(new Error(`host not found: ${hostname}`), { code: 'ENOTFOUND' });
        const refused = guarded ? wanted.map((a) => this.refusal(a.address)).find((reason) => reason !== null) : undefined;
        if (refused) throw new TargetRefusedError(`${hostname} resolves to ${refused}`);
        if (options.all) callback(null, wanted);
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      }).catch((error: unknown) => callback(error));
    };
  }
}

/** How one environment's deliveries connect. */
export interface DeliveryTarget {
  /** why this URL host may not be connected to (literal addresses; names are checked on lookup) */
  refusal(hostname: string): string | null;
  dispatcher: Agent;
}

/** A delivery stopped before connecting; the attempt records its message. */
export class TargetRefusedError extends Error {
  readonly code = 'EFUNDKIT_TARGET_REFUSED';
}

const systemResolver: HostResolver = (hostname) => new Promise((resolve, reject) => {
  dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
});
