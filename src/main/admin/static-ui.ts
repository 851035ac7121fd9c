import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import type { Middleware } from 'koa';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** The UI loads only its own scripts and talks only to this listener. */
export const UI_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Serves the built React UI; unknown paths without an extension fall back to index.html. */
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
    let relative: string;
    try {
      relative = normalize(decodeURIComponent(ctx.path)).replace(/^([/\\])+/, '');
    } catch {
      await next();
      return;
    }
    let file = join(uiDir, relative);
    if (!file.startsWith(uiDir + sep) && file !== uiDir) {
      await next();
      return;
    }
    if (!existsSync(file) || !statSync(file).isFile()) {
      if (extname(relative) !== '') {
        await next();
        return;
      }
      file = join(uiDir, 'index.html');
    }
    const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
    ctx.set('Content-Security-Policy', UI_CONTENT_SECURITY_POLICY);
    ctx.set(
      'Cache-Control',
      file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
    );
    ctx.type = type;
    ctx.body = createReadStream(file);
  };
}
