import type { IncomingMessage } from 'node:http';
import { isIPv4, isIPv6 } from 'node:net';

// Every request asks: the pattern only for an address that can hold a mapped IPv4 one.
const normalize = (address: string): string =>
  address.startsWith('::ffff:') ? address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '') : address;

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

/**
 * The client as a budget counts it: an IPv6 address by its /64, which one subscriber (or one
 * attacker) is routinely given whole, so that its 2^64 addresses share one budget; anything
 * else as it is. Only bucket keys use this; the log keeps the full address.
 */
export function budgetKey(client: string): string {
  if (!isIPv6(client)) return client;
  const groups = ipv6Groups(client);
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, in short hex, `::` and an IPv4 tail expanded. */
function ipv6Groups(address: string): string[] {
  let text = address.split('%')[0]!;
  const v4At = text.lastIndexOf(':') + 1;
  const tail = text.slice(v4At);
  if (isIPv4(tail)) {
    const [a, b, c, d] = tail.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4At)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const before = head === '' ? [] : head.split(':');
  const after = rest === undefined || rest === '' ? [] : rest.split(':');
  const zeros = rest === undefined ? [] : Array<string>(8 - before.length - after.length).fill('0');
  return [...before, ...zeros, ...after].map((group) => parseInt(group, 16).toString(16));
}
