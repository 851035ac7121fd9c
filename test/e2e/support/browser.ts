import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startTestRelay, type TestRelay } from '../../support/relay.js';

/** Debian's Chromium; Playwright never downloads a browser of its own here. */
export const CHROMIUM_PATH = process.env.HOOKPORT_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

/** The built UI (`npm test` builds it before Vitest runs). */
export const UI_DIR = resolve(import.meta.dirname, '../../../out/renderer');
export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../../test-output/screenshots');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

export interface UiSession {
  relay: TestRelay;
  page: Page;
  close(): Promise<void>;
}

/**
 * A real relay serving the built UI, and a page signed in through the login link the way an
 * operator opens it (the link sets the session cookie and redirects to the UI).
 */
export async function openUi(
  browser: Browser,
  options: { relay?: TestRelay; token?: string; viewport?: { width: number; height: number } } = {},
): Promise<UiSession> {
  const relay = options.relay ?? (await startTestRelay({ uiDir: UI_DIR }));
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1400, height: 900 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  const token = options.token ?? relay.adminToken;
  await page.goto(`${relay.adminUrl}/login?token=${encodeURIComponent(token)}`);
  await page.getByRole('navigation', { name: 'Sections' }).waitFor();
  return {
    relay,
    page,
    async close() {
      await context.close();
      if (!options.relay) await relay.stop();
    },
  };
}

/** Saves a full-page screenshot under test-output/screenshots/ for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/**
 * For a describe block: one browser, launched before its tests and closed after them. Read
 * `.browser` inside the tests (it is set in beforeAll).
 */
export function useBrowser(): { browser: Browser } {
  const shared = {} as { browser: Browser };
  beforeAll(async () => {
    shared.browser = await launchBrowser();
  });
  afterAll(() => shared.browser.close());
  return shared;
}

/**
 * For a describe block: one browser and one real relay serving the UI, started before its tests
 * and stopped after them. Read the fields inside the tests (they are set in beforeAll).
 */
export function useBrowserAndRelay(): { browser: Browser; relay: TestRelay } {
  const shared = {} as { browser: Browser; relay: TestRelay };
  beforeAll(async () => {
    shared.browser = await launchBrowser();
    shared.relay = await startTestRelay({ uiDir: UI_DIR });
  });
  afterAll(async () => {
    await shared.relay.stop();
    await shared.browser.close();
  });
  return shared;
}
