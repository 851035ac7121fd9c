import { isIP } from 'node:net';

const PRIVATE_V4 = [
  /^127\./,
  /^10\./,
  /^192\.168\./,
  /^172\.(1[6-9]|2\d|3[01])\./,
  /^169\.254\./,
  /^0\./,
  /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./,
];

/**
 * Whether a URL names this machine or a private network, which no provider on the internet can
 * reach: a provider's hook is never pointed there (it would fail every delivery after).
 */
export function isUnreachableFromInternet(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return true;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host === '') return true;
  if (isIP(host) === 4) return PRIVATE_V4.some((range) => range.test(host));
  if (isIP(host) === 6) {
    return (
      host === '::1' ||
      host === '::' ||
      /^f[cd]/.test(host) ||
      /^fe[89ab]/.test(host) ||
      /^::ffff:(127|10|192\.168)\./.test(host)
    );
  }
  return false;
}
