import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../support/relay.js';

const root = join(import.meta.dirname, '../../..');
const builtMain = join(root, 'out/main/index.js');

type Served = { status: number; csp: string | null; type: string | null; body: string };
type IpcAnswer = { ok: boolean; value?: { role: string }; error?: { code: string } };
interface Report {
  windowOptions: { webPreferences: Record<string, unknown> };
  loadedUrl: string;
  privilegedSchemes: Array<{ scheme: string; privileges: Record<string, boolean> }>;
  servedIndex: Served;
  servedTraversal: Served;
  servedTraversalFile: Served;
  servedOtherHost: Served;
  openHttps: { action: string };
  openHttp: { action: string };
  openedExternally: string[];
  navigationPrevented: Record<string, boolean>;
  permissionGranted: boolean;
  permissionCheck: boolean;
  ipcChannels: string[];
  ipcMessageChannels: string[];
  ipcFromWindow: IpcAnswer;
  ipcFromSubframe: IpcAnswer;
  ipcFromForeignPage: IpcAnswer;
  ipcFromOtherContents: IpcAnswer;
  trayMenu: string[];
  errors: string[];
  exitedCleanly: boolean;
}

/**
 * Runs the real built main bundle (`npm run build` → out/main/index.js) under plain Node with a
 * recording stand-in for the electron module, and checks what it asked Electron for.
 */
describe('the built desktop main bundle', () => {
  const dir = tempDir('hookport-desktop-');
  let report: Report;

  beforeAll(() => {
    if (!existsSync(builtMain))
      throw new Error('out/main/index.js is missing: run `npm run build` first.');
    const reportFile = join(dir, 'report.json');
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--import', './test/support/electron-standin/register.mjs', builtMain],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: 30_000,
        env: {
          ...process.env,
          STANDIN_REPORT: reportFile,
          STANDIN_USER_DATA: dir,
          HOOKPORT_DATA_DIR: join(dir, 'relay'),
          HOOKPORT_INGRESS_PORT: '0',
          HOOKPORT_SECRET_BACKEND: 'file',
        },
      },
    );
    if (!existsSync(reportFile))
      throw new Error(`no report; exit ${run.status}\n${run.stdout}\n${run.stderr}`);
    report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('opens the window isolated, sandboxed, without Node, with web security', () => {
    expect(report.windowOptions.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    });
    expect(String(report.windowOptions.webPreferences.preload)).toMatch(
      /out\/preload\/index\.cjs$/,
    );
  });

  it('loads the UI from the app:// protocol, never file://, with the strict CSP', () => {
    expect(report.loadedUrl).toBe('app://hookport/index.html');
    expect(report.privilegedSchemes).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ]);
    expect(report.servedIndex.status).toBe(200);
    expect(report.servedIndex.type).toMatch(/^text\/html/);
    expect(report.servedIndex.csp).toContain("script-src 'self'");
    expect(report.servedIndex.csp).toContain("default-src 'self'");
    expect(report.servedIndex.csp).not.toContain('unsafe');
  });

  it('serves nothing outside the renderer folder or for another host', () => {
    // An escaping path clamps to the renderer folder: the answer is the app's own page or a 404.
    expect(report.servedTraversal.body).not.toContain('root:');
    expect(report.servedTraversal.body).toBe(report.servedIndex.body);
    expect(report.servedTraversalFile.status).toBe(404);
    expect(report.servedTraversalFile.body).not.toContain('"name"');
    expect(report.servedOtherHost.status).toBe(404);
  });

  it('denies new windows and opens only https links in the system browser', () => {
    expect(report.openHttps).toEqual({ action: 'deny' });
    expect(report.openHttp).toEqual({ action: 'deny' });
    expect(report.openedExternally).toContain('https://example.com/docs');
    expect(report.openedExternally).not.toContain('http://example.com/');
  });

  it('cancels navigation away from the app and keeps navigation within it', () => {
    expect(report.navigationPrevented).toEqual({
      'https://evil.example/': true,
      'app://hookport/automations': false,
      'file:///etc/passwd': true,
    });
  });

  it('denies every permission request and check', () => {
    expect(report.permissionGranted).toBe(false);
    expect(report.permissionCheck).toBe(false);
  });

  it('answers IPC from the app window only, as the manage operator', () => {
    expect(report.ipcChannels).toContain('hookport:invoke:webhooks.create');
    // A call the window no longer wants is left by a message of its own.
    expect(report.ipcMessageChannels).toEqual(['hookport:leave']);
    expect(report.ipcFromWindow).toMatchObject({ ok: true, value: { role: 'manage' } });
    for (const refused of [
      report.ipcFromSubframe,
      report.ipcFromForeignPage,
      report.ipcFromOtherContents,
    ]) {
      expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
  });

  it('shows the relay in the tray and shuts the core down cleanly on quit', () => {
    expect(report.errors).toEqual([]);
    expect(report.trayMenu).toContain('Relay running');
    expect(report.trayMenu).toContain('Quit Hookport');
    expect(report.trayMenu).toContain('No tunnel: senders on the internet cannot reach this relay');
    expect(report.exitedCleanly).toBe(true);
  });
});
