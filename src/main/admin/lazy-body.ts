import type { Middleware } from 'koa';
import type { koaBody } from 'koa-body';

type BodyOptions = NonNullable<Parameters<typeof koaBody>[0]>;

/** The methods koa-body parses a body for (its `parsedMethods` default). */
const PARSED = new Set(['POST', 'PUT', 'PATCH']);

/**
 * koa-body, loaded on the first request that has a body to parse rather than at start: it brings
 * co-body, formidable, qs, iconv-lite and their dependencies, about 260 ms of CPU to load
 * (measured on the 2-core benchmark machine, issue 28), none of which the relay's first answers
 * need. Reads (GET, HEAD) never load it.
 */
export function lazyKoaBody(options: BodyOptions): Middleware {
  let loaded: Promise<Middleware> | null = null;
  return async (ctx, next) => {
    if (!PARSED.has(ctx.method)) {
      await next();
      return;
    }
    loaded ??= import('koa-body').then((module) => module.koaBody(options));
    await (
      await loaded
    )(ctx, next);
  };
}
