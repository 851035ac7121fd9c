/**
 * A recording stand-in for the `electron` module, the one boundary we cannot run here (its binary
 * cannot be downloaded). The real built main bundle runs against it under plain Node; once the
 * window loads, the stand-in exercises what main registered and writes a report for the test.
 */
import { EventEmitter } from 'node:events';
import { writeFileSync } from 'node:fs';

type Handler = (...args: never[]) => unknown;

const report: Record<string, unknown> = {
  errors: [],
  openedExternally: [],
  sent: [],
  notifications: [],
  copied: [],
};
/** What was recorded so far, for tests that drive main's modules in process (vi.mock). */
export const recorded = report;
type MenuItem = { label?: string; enabled?: boolean; click?: () => void };
let trayItems: MenuItem[] = [];
/** The tray's menu as last set, with its click handlers. */
export const trayMenuItems = (): MenuItem[] => trayItems;
const protocolHandlers = new Map<string, (request: Request) => Promise<Response>>();
const ipcHandlers = new Map<string, Handler>();
const ipcListeners = new Map<string, Handler>();
let permissionRequestHandler: Handler | null = null;
let permissionCheckHandler: Handler | null = null;

class WebContentsStandIn extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: string }) | null = null;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.openHandler = handler;
  }
  send(channel: string): void {
    (report.sent as string[]).push(channel);
  }
  isDestroyed(): boolean {
    return false;
  }
}

export class BrowserWindow extends EventEmitter {
  readonly webContents = new WebContentsStandIn();
  constructor(options: unknown) {
    super();
    report.windowOptions = options;
    app.emit('web-contents-created', {}, this.webContents);
  }
  loadURL(url: string): Promise<void> {
    report.loadedUrl = url;
    setTimeout(() => void probe(this), 50);
    return Promise.resolve();
  }
  show(): void {}
  focus(): void {}
  restore(): void {}
  isMinimized(): boolean {
    return false;
  }
  isDestroyed(): boolean {
    return false;
  }
}

class AppStandIn extends EventEmitter {
  requestSingleInstanceLock(): boolean {
    return true;
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  getPath(): string {
    return process.env.STANDIN_USER_DATA ?? '/nonexistent';
  }
  private loginItem = { openAtLogin: false };
  setLoginItemSettings(settings: { openAtLogin: boolean }): void {
    this.loginItem = { ...settings };
    report.loginItem = settings;
  }
  getLoginItemSettings(): { openAtLogin: boolean } {
    return this.loginItem;
  }
  quit(): void {
    const event = {
      defaultPrevented: false,
      preventDefault: () => (event.defaultPrevented = true),
    };
    this.emit('before-quit', event);
    if (!event.defaultPrevented) this.exit(0);
  }
  exit(code: number): void {
    report.exitedCleanly = code === 0;
    writeFileSync(process.env.STANDIN_REPORT!, JSON.stringify(report, null, 2));
    process.exit(code);
  }
}
export const app = new AppStandIn();

export const protocol = {
  registerSchemesAsPrivileged: (schemes: unknown) => (report.privilegedSchemes = schemes),
  handle: (scheme: string, handler: (request: Request) => Promise<Response>) =>
    protocolHandlers.set(scheme, handler),
};
export const session = {
  defaultSession: {
    setPermissionRequestHandler: (h: Handler) => (permissionRequestHandler = h),
    setPermissionCheckHandler: (h: Handler) => (permissionCheckHandler = h),
  },
};
export const ipcMain = {
  handle: (channel: string, handler: Handler) => ipcHandlers.set(channel, handler),
  removeHandler: (channel: string) => ipcHandlers.delete(channel),
  on: (channel: string, listener: Handler) => ipcListeners.set(channel, listener),
  removeListener: (channel: string) => ipcListeners.delete(channel),
};
export const dialog = {
  showErrorBox: (title: string, body: string) =>
    (report.errors as string[]).push(`${title}: ${body}`),
};
export const shell = {
  openExternal: (url: string) => {
    (report.openedExternally as string[]).push(url);
    return Promise.resolve();
  },
};
export const Menu = { buildFromTemplate: (template: MenuItem[]) => ({ template }) };
export class Tray {
  constructor() {
    report.tray = true;
  }
  setToolTip(text: string): void {
    report.trayTooltip = text;
  }
  setContextMenu(menu: { template: MenuItem[] }): void {
    trayItems = menu.template;
    report.trayMenu = menu.template.map((item) => item.label ?? '---');
  }
  on(): void {}
}
export const clipboard = {
  writeText: (text: string) => void (report.copied as string[]).push(text),
};
export class Notification {
  static isSupported(): boolean {
    return true;
  }
  constructor(private readonly options: { title: string; body: string }) {}
  show(): void {
    (report.notifications as Array<{ title: string; body: string }>).push(this.options);
  }
}
export const utilityProcess = {
  fork: () => {
    throw new Error('the stand-in runs relays on the file backend; no keychain probe expected');
  },
};
/** Emits what the test asks (suspend, resume); records who listens. */
export const powerMonitor = new EventEmitter();
export const nativeImage = { createFromPath: (path: string) => ((report.trayIcon = path), {}) };

async function serve(
  url: string,
): Promise<{ status: number; csp: string | null; type: string | null; body: string }> {
  const response = await protocolHandlers.get('app')!(new Request(url));
  return {
    status: response.status,
    csp: response.headers.get('content-security-policy'),
    type: response.headers.get('content-type'),
    body: (await response.text()).slice(0, 200),
  };
}

/** What a page, a link or a stray frame would do to the window, and what main answered. */
async function probe(window: BrowserWindow): Promise<void> {
  report.servedIndex = await serve('app://hookport/index.html');
  report.servedTraversal = await serve('app://hookport/..%2F..%2F..%2Fetc%2Fpasswd');
  report.servedTraversalFile = await serve('app://hookport/..%2F..%2Fpackage.json');
  report.servedOtherHost = await serve('app://elsewhere/index.html');
  report.openHttps = window.webContents.openHandler?.({ url: 'https://example.com/docs' });
  report.openHttp = window.webContents.openHandler?.({ url: 'http://example.com/' });
  const navigations: Record<string, boolean> = {};
  for (const url of ['https://evil.example/', 'app://hookport/automations', 'file:///etc/passwd']) {
    let prevented = false;
    window.webContents.emit('will-frame-navigate', {
      url,
      preventDefault: () => (prevented = true),
    });
    navigations[url] = prevented;
  }
  report.navigationPrevented = navigations;
  let granted: boolean | null = null;
  (
    permissionRequestHandler as unknown as (w: unknown, p: string, cb: (g: boolean) => void) => void
  )?.(window.webContents, 'media', (g) => (granted = g));
  report.permissionGranted = granted;
  report.permissionCheck = (permissionCheckHandler as unknown as () => boolean)?.();
  report.ipcChannels = [...ipcHandlers.keys()];
  report.ipcMessageChannels = [...ipcListeners.keys()];
  const status = ipcHandlers.get('hookport:invoke:relay.status') as unknown as (
    e: unknown,
    i: unknown,
  ) => Promise<unknown>;
  const appFrame = { parent: null, url: 'app://hookport/index.html' };
  report.ipcFromWindow = await status({ sender: window.webContents, senderFrame: appFrame }, {});
  report.ipcFromSubframe = await status(
    { sender: window.webContents, senderFrame: { ...appFrame, parent: {} } },
    {},
  );
  report.ipcFromForeignPage = await status(
    { sender: window.webContents, senderFrame: { parent: null, url: 'https://evil.example/' } },
    {},
  );
  report.ipcFromOtherContents = await status({ sender: {}, senderFrame: appFrame }, {});
  app.quit();
}
