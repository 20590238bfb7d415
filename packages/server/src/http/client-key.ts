import type { Request } from 'express';
import ipaddr from 'ipaddr.js';

/**
 * The client a per-client limit counts: its address (req.ip: behind a proxy, the one
 * FUNDKIT_TRUST_PROXY lets Express read), an IPv6 one by its /64. One host is usually handed a
 * whole /64, so counting each of its addresses apart would give one client a fresh limit (and
 * the database a fresh counter row) per request. An IPv4-mapped IPv6 address counts as its IPv4.
 */
export function clientKey(req: Request): string {
  const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16)).join(':');
  return `${prefix}::/64`;
}
