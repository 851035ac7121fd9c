import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Middleware } from 'koa';
import { UI_CONTENT_SECURITY_POLICY, resolveUiFile } from '../ui-files.js';

/** Serves the built React UI on the admin listener. */
export function staticUi(uiDir: string | null): Middleware {
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path.startsWith('/api/')) {
      await next();
      return;
    }
    if (uiDir === null || !existsSync(join(uiDir, 'index.html'))) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The UI has not been built. Run `npm run build`, then restart the relay.';
      return;
    }
    const file = resolveUiFile(uiDir, ctx.path);
    if (!file) {
      await next();
      return;
    }
    ctx.set('Content-Security-Policy', UI_CONTENT_SECURITY_POLICY);
    ctx.set('Cache-Control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    ctx.type = file.contentType;
    ctx.body = createReadStream(file.path);
  };
}
