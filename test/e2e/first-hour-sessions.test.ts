import { describe, expect, it } from 'vitest';
import { axeProblems } from './support/axe.js';
import { openUi, useBrowserAndRelay } from './support/browser.js';

/**
 * Issue 29, Build 5: the Revoke dialog says what really happens, and it happens. A browser signed
 * in with a token whose session the operator revokes from another window is signed out at once:
 * it shows the sign-in form by itself, and a reload does not bring the old session back.
 */
describe('revoking a token ends the browser sessions signed in with it', () => {
  const env = useBrowserAndRelay();

  it('at 1024×768: the wallboard’s browser shows the sign-in form once its token is revoked', async () => {
    const { browser, relay } = env;
    const minted = await relay.api<{ value: string }>('POST', '/api/tokens', {
      name: 'wallboard',
      role: 'view',
    });
    expect(minted.status).toBe(201);

    const wallboard = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    const admin = await openUi(browser, { relay, viewport: { width: 1024, height: 768 } });
    try {
      const viewer = await wallboard.newPage();
      viewer.setDefaultTimeout(15_000);
      await viewer.goto(relay.adminUrl);
      await viewer.getByLabel('Token', { exact: true }).fill(minted.body.value);
      await viewer.getByRole('button', { name: 'Sign in' }).click();
      await viewer.getByRole('navigation', { name: 'Sections' }).waitFor();

      const { page } = admin;
      page.setDefaultTimeout(15_000);
      await page.goto(`${relay.adminUrl}/#/settings`);
      await page.getByRole('button', { name: 'Revoke wallboard' }).click();
      const confirm = page.getByRole('dialog', { name: 'Revoke "wallboard"?' });
      expect(await confirm.textContent()).toContain(
        'every browser signed in with it is signed out',
      );
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        expect(await axeProblems(page, `Revoke dialog, ${scheme}`)).toEqual([]);
      }
      await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();

      // The wallboard reads the relay's status every few seconds: its next read is refused.
      const signIn = viewer.getByRole('heading', { name: 'Sign in to Hookport' });
      await signIn.waitFor();
      await viewer.reload();
      await signIn.waitFor();
      expect(await viewer.getByRole('navigation', { name: 'Sections' }).count()).toBe(0);
    } finally {
      await admin.close();
      await wallboard.close();
    }
  }, 60_000);
});
