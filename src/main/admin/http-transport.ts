import type Router from '@koa/router';
import type { Context } from 'koa';
import { contract, methodNames } from '../../shared/contract/index.js';
import { ApiError } from '../../shared/errors.js';
import { dispatch } from '../service/dispatch.js';
import type { Caller, ServiceHandlers } from '../service/handlers.js';
import { AskerGoneError, closedFirst } from '../store/asker-gone.js';

/** Resolves the caller or answers 401; shared with the event stream. */
export type Authenticate = (ctx: Context) => Promise<Caller>;

function requestInput(ctx: Context): Record<string, unknown> {
  const params = (ctx as Context & { params?: Record<string, string> }).params ?? {};
  if (ctx.method === 'GET' || ctx.method === 'DELETE') return { ...ctx.query, ...params };
  const body = (ctx.request as { body?: unknown }).body;
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw new ApiError('invalid_input', 'The request body must be a JSON object.');
  }
  return { ...(body as Record<string, unknown> | undefined), ...params };
}

/** The HTTP transport: one route per contract method, generated, holding no logic of its own. */
export function mountContractRoutes(
  router: Router,
  service: ServiceHandlers,
  authenticate: Authenticate,
): void {
  for (const name of methodNames) {
    const { http } = contract[name];
    router.register(http.path, [http.method], async (ctx) => {
      const gone = new AbortController();
      ctx.res.once('close', () => {
        if (!ctx.res.writableFinished) gone.abort();
      });
      const caller = { ...(await authenticate(ctx)), gone: gone.signal };
      let output: unknown;
      try {
        output = await dispatch(service, name, requestInput(ctx), caller);
      } catch (error) {
        // A read stopped because its asker left answers no one, and is not the relay's fault.
        if (error instanceof AskerGoneError) throw closedFirst();
        throw error;
      }
      ctx.status = http.status ?? 200;
      // Koa answers a null body with nothing at all; a contract's null (no link yet) is JSON too.
      if (output === null) {
        ctx.type = 'application/json';
        ctx.body = 'null';
      } else ctx.body = output;
    });
  }
}
