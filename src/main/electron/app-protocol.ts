import { readFile } from 'node:fs/promises';
import { UI_CONTENT_SECURITY_POLICY, resolveUiFile } from '../ui-files.js';
import { isAppUrl } from './window-options.js';

const notFound = (): Response =>
  new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain' } });

/**
 * Serves the built renderer on `app://hookport/…` (not file://), every answer with the strict CSP,
 * resolving paths exactly as the admin listener does.
 */
export function createAppProtocolHandler(
  rendererDir: string,
): (request: Request) => Promise<Response> {
  return async (request) => {
    if (!isAppUrl(request.url) || request.method !== 'GET') return notFound();
    const file = resolveUiFile(rendererDir, new URL(request.url).pathname);
    if (!file) return notFound();
    return new Response(new Uint8Array(await readFile(file.path)), {
      status: 200,
      headers: {
        'Content-Type': file.contentType,
        'Content-Security-Policy': UI_CONTENT_SECURITY_POLICY,
        'X-Content-Type-Options': 'nosniff',
      },
    });
  };
}
