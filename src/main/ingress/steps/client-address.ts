import type { IncomingMessage } from 'node:http';

const normalize = (address: string): string =>
  address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');

/**
 * The address that keys rate-limit buckets (never authentication). Behind a tunnel, the last
 * X-Forwarded-For hop is the one the tunnel itself saw; earlier hops are the sender's to forge.
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headersDistinct['x-forwarded-for'];
    const last = forwarded?.[forwarded.length - 1]?.split(',').pop()?.trim();
    if (last) return normalize(last);
  }
  return normalize(req.socket.remoteAddress ?? 'unknown');
}
