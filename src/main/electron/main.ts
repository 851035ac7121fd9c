import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BrowserWindow, app, dialog, ipcMain, powerMonitor, protocol, session } from 'electron';
import { DEFAULT_INGRESS_PORT } from '../config.js';
import { startCore, type Core } from '../core.js';
import { consoleLogger } from '../log.js';
import { forwardEvents } from '../ipc/event-forwarder.js';
import { registerContractHandlers } from '../ipc/ipc-transport.js';
import { createAppProtocolHandler } from './app-protocol.js';
import { reportResume } from '../links/power-resume.js';
import { confineWebContents, denyAllPermissions } from './security.js';
import { createRelayTray } from './tray.js';
import { followLoginItem, showDesktopNotices } from './desktop-notices.js';
import { utilityProcessProbeRunner } from './utility-probe.js';
import { APP_ENTRY_URL, APP_SCHEME, isAppUrl, mainWindowOptions } from './window-options.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const PRELOAD = join(here, '../preload/index.cjs');
const RENDERER_DIR = join(here, '../renderer');
const TRAY_ICON = join(here, '../../resources/tray-icon.png');

// Before `ready`: app:// behaves like https (secure, standard URLs, fetch) for the renderer.
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

let core: Core | null = null;
let window: BrowserWindow | null = null;
let quitting = false;

function showWindow(): void {
  if (!window || window.isDestroyed()) {
    window = new BrowserWindow(mainWindowOptions(PRELOAD));
    window.once('ready-to-show', () => window?.show());
    void window.loadURL(APP_ENTRY_URL);
    if (core) {
      const stopForwarding = forwardEvents(core.events, window.webContents);
      window.on('closed', stopForwarding);
    }
    return;
  }
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

async function start(): Promise<void> {
  denyAllPermissions(session.defaultSession);
  protocol.handle(APP_SCHEME, createAppProtocolHandler(RENDERER_DIR));
  const port = Number(process.env.HOOKPORT_INGRESS_PORT ?? DEFAULT_INGRESS_PORT);
  try {
    core = await startCore({
      dataDir: process.env.HOOKPORT_DATA_DIR ?? join(app.getPath('userData'), 'relay'),
      ingress: { host: '127.0.0.1', port },
      admin: null,
      masterKeyFromEnv: process.env.HOOKPORT_MASTER_KEY,
      secretBackend: process.env.HOOKPORT_SECRET_BACKEND,
      keychainProbeRunner: utilityProcessProbeRunner,
      log: consoleLogger,
    });
  } catch (error) {
    dialog.showErrorBox(
      'Hookport could not start its relay',
      `${error instanceof Error ? error.message : String(error)}\n\nIf another relay already uses port ${port}, stop it or set HOOKPORT_INGRESS_PORT.`,
    );
    app.exit(1);
    return;
  }
  registerContractHandlers(ipcMain, core.service, {
    caller: { role: 'manage' },
    // The operator at this window holds `manage`; only the app's own top frame may call in.
    isTrustedSender: (event) =>
      event.sender === window?.webContents &&
      event.senderFrame?.parent === null &&
      isAppUrl(event.senderFrame.url),
    log: consoleLogger,
  });
  createRelayTray(core, TRAY_ICON, { show: showWindow, quit: () => app.quit() });
  showDesktopNotices(core, consoleLogger);
  followLoginItem(core);
  const relay = core;
  reportResume(powerMonitor, (at, slept) => relay.wake.resumed(at, slept));
  showWindow();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', showWindow);
  app.on('web-contents-created', (_event, contents) => confineWebContents(contents));
  app.on('activate', showWindow);
  // Keep relaying with the window closed; the tray's Quit ends it.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', (event) => {
    if (quitting || !core) return;
    event.preventDefault();
    quitting = true;
    void core.stop().finally(() => app.exit(0));
  });
  void app.whenReady().then(start);
}
