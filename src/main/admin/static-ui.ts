import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Middleware } from 'koa';
import { UI_CONTENT_SECURITY_POLICY, resolveUiFile } from '../ui-files.js';
import { createCompressedAssets, type AssetEncoding } from './compressed-assets.js';

/**
 * Reading (or, for a UI built without them, compressing: about 1.3 s of CPU at brotli's highest
 * quality on the 2-core benchmark machine, issue 28) the built UI's compressed files waits this
 * long after the relay's start, which it would compete with; a request before that reads or
 * compresses its own file.
 */
const WARM_AFTER_MS = 5_000;

/** The built UI's scripts and styles, compressed soon after the relay starts rather than on first use. */
function builtAssets(uiDir: string): string[] {
  try {
    const assets = join(uiDir, 'assets');
    return [join(uiDir, 'index.html'), ...readdirSync(assets).map((name) => join(assets, name))];
  } catch {
    return [];
  }
}

/** Serves the built React UI on the admin listener. */
export function staticUi(uiDir: string | null): Middleware {
  const compressed = createCompressedAssets();
  if (uiDir !== null) {
    setTimeout(() => compressed.warm(builtAssets(uiDir)), WARM_AFTER_MS).unref();
  }
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
    ctx.vary('Accept-Encoding');
    // Brotli whenever it is taken at all: browsers list it last but it is the smaller one.
    const encoding = ctx.acceptsEncodings('br') || ctx.acceptsEncodings('gzip', 'identity');
    if (encoding === 'br' || encoding === 'gzip') {
      const body = await compressed.get(file.path, encoding satisfies AssetEncoding);
      if (body) {
        ctx.set('Content-Encoding', encoding);
        ctx.body = body;
        return;
      }
    }
    ctx.body = createReadStream(file.path);
  };
}
