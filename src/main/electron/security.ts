import { shell, type Session, type WebContents } from 'electron';
import { isAppUrl, isSafeExternalUrl } from './window-options.js';

/** The UI needs no camera, notifications, clipboard-read or anything else a page may ask for. */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

function openOutside(url: string): void {
  if (isSafeExternalUrl(url)) void shell.openExternal(url);
}

/**
 * Every web contents stays on the app's own pages: new windows are refused (https links open in
 * the system browser), navigations and redirects elsewhere are cancelled, webviews never attach.
 */
export function confineWebContents(contents: WebContents): void {
  contents.setWindowOpenHandler(({ url }) => {
    openOutside(url);
    return { action: 'deny' };
  });
  contents.on('will-frame-navigate', (details) => {
    if (isAppUrl(details.url)) return;
    details.preventDefault();
    openOutside(details.url);
  });
  contents.on('will-redirect', (details) => {
    if (!isAppUrl(details.url)) details.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}
