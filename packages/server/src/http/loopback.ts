import type { Request } from 'express';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
/** Headers a proxy adds: a request carrying one came through a proxy, whatever its socket says. */
export const FORWARDING = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip', 'via'];

/**
 * A client on this machine, talking to this server directly: the socket's peer is loopback and no
 * proxy stood between (a reverse proxy on this host would make every client's socket loopback).
 * FUNDKIT_TRUST_PROXY plays no part: req.ip is never read here.
 */
export function isGenuineLoopback(req: Request): boolean {
  return LOOPBACK.has(req.socket.remoteAddress ?? '') && FORWARDING.every((name) => req.headers[name] === undefined);
}
