import { statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';

/** The UI loads only its own scripts and talks only to where it was loaded from. */
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

export interface UiFile {
  path: string;
  contentType: string;
  /** Vite's hashed assets never change under the same name. */
  immutable: boolean;
}

const isFile = (path: string): boolean => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/**
 * The built UI's file for a URL path, for the admin listener and the desktop's app:// protocol
 * alike. Paths cannot leave the UI folder; unknown routes without an extension are the
 * single-page app's index.html; anything else is null (a 404).
 */
export function resolveUiFile(uiDir: string, urlPath: string): UiFile | null {
  const root = normalize(uiDir);
  let relative: string;
  try {
    relative = normalize(decodeURIComponent(urlPath)).replace(/^([/\\])+/, '');
  } catch {
    return null;
  }
  let path = join(root, relative === '' || relative === '.' ? 'index.html' : relative);
  if (!path.startsWith(root + sep)) return null;
  if (!isFile(path)) {
    if (extname(relative) !== '') return null;
    path = join(root, 'index.html');
    if (!isFile(path)) return null;
  }
  return {
    path,
    contentType: CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
    immutable: path.includes(`${sep}assets${sep}`),
  };
}
