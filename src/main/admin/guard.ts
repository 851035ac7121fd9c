import type { Middleware } from 'koa';
import { ApiError } from '../../shared/errors.js';

const loopbackHosts = (port: number): string[] => [
  `127.0.0.1:${port}`,
  `localhost:${port}`,
  `[::1]:${port}`,
];

/**
 * DNS-rebinding and cross-site defence (PRODUCT.md §10): the Host must name this loopback
 * listener exactly; a state-changing request or an event stream that sends an Origin must send
 * our own. Forwarding headers are never consulted.
 */
export function loopbackGuard(port: () => number): Middleware {
  return async (ctx, next) => {
    const hosts = loopbackHosts(port());
    // Node keeps the first of several Host headers; a proxy in front may have read another one.
    const hostLines = ctx.req.headersDistinct.host?.length ?? 0;
    if (hostLines !== 1 || !hosts.includes(ctx.get('host'))) {
      throw new ApiError(
        'forbidden',
        'This admin listener answers only to 127.0.0.1, localhost or [::1] with its port.',
      );
    }
    const stateChanging = !['GET', 'HEAD', 'OPTIONS'].includes(ctx.method);
    const isStream = ctx.path === '/api/events';
    if (stateChanging || isStream) {
      const origin = ctx.get('origin');
      if (origin !== '' && !hosts.some((h) => origin === `http://${h}`)) {
        throw new ApiError('forbidden', 'Cross-site requests are refused.');
      }
      if (ctx.get('sec-fetch-site') === 'cross-site')
        throw new ApiError('forbidden', 'Cross-site requests are refused.');
    }
    await next();
  };
}
