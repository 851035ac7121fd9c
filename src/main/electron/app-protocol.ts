import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { UI_CONTENT_SECURITY_POLICY } from '../admin/static-ui.js';
import { isAppUrl } from './window-options.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

const notFound = (): Response =>
  new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain' } });

/**
 * Serves the built renderer on `app://hookport/…` (not file://): every answer carries the strict
 * CSP, paths cannot leave the renderer folder, and unknown routes fall back to index.html.
 */
export function createAppProtocolHandler(
  rendererDir: string,
): (request: Request) => Promise<Response> {
  const root = normalize(rendererDir);
  return async (request) => {
    if (!isAppUrl(request.url) || request.method !== 'GET') return notFound();
    let relative: string;
    try {
      relative = normalize(decodeURIComponent(new URL(request.url).pathname)).replace(
        /^([/\\])+/,
        '',
      );
    } catch {
      return notFound();
    }
    if (relative === '' || relative === '.') relative = 'index.html';
    let file = join(root, relative);
    if (!file.startsWith(root + sep)) return notFound();
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      if (extname(relative) !== '') return notFound();
      file = join(root, 'index.html');
      body = await readFile(file);
    }
    return new Response(new Uint8Array(body), {
      status: 200,
      headers: {
        'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
        'Content-Security-Policy': UI_CONTENT_SECURITY_POLICY,
        'X-Content-Type-Options': 'nosniff',
      },
    });
  };
}
