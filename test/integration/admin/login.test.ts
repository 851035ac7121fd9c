import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../../support/relay.js';

/**
 * PRODUCT §10/§12: `/login?token=` with the printed one-time code sets the UI's session cookie
 * (HttpOnly, SameSite=Strict) and redirects 303 to `/`; the code works once.
 */
describe('the login link', () => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => relay.stop());

  const open = (link: string) => fetch(link, { redirect: 'manual' });
  const sessionCookie = (response: Response): string | undefined =>
    response.headers.getSetCookie().find((c) => c.startsWith('hookport_session='));

  it('sets an HttpOnly, SameSite=Strict session cookie and redirects 303 to /', async () => {
    const response = await open(relay.core.loginLink());
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
    const cookie = sessionCookie(response);
    expect(cookie).toBeDefined();
    const attributes = cookie!.split(';').map((a) => a.trim().toLowerCase());
    expect(attributes).toContain('httponly');
    expect(attributes).toContain('samesite=strict');
    expect(attributes).toContain('path=/');

    const session = cookie!.split(';')[0]!;
    const status = await relay.api('GET', '/api/status', undefined, {
      token: null,
      headers: { cookie: session },
    });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ role: 'manage' });
  });

  it('cannot be used twice', async () => {
    const link = relay.core.loginLink();
    expect((await open(link)).status).toBe(303);
    const again = await open(link);
    // To the sign-in form, which says why (the UI reads the query).
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/?signin=link-used');
    expect(sessionCookie(again)).toBeUndefined();
  });

  it('used again in a browser that is still signed in, just opens the UI', async () => {
    const link = relay.core.loginLink();
    const cookie = sessionCookie(await open(link))!.split(';')[0]!;
    const again = await fetch(link, { redirect: 'manual', headers: { cookie } });
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/');
    expect(sessionCookie(again)).toBeUndefined();

    const signedOut = await fetch(link, {
      redirect: 'manual',
      headers: { cookie: 'hookport_session=not-a-session' },
    });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get('location')).toBe('/?signin=link-used');
    expect(sessionCookie(signedOut)).toBeUndefined();
  });

  it('refuses a made-up code, and accepts the admin token itself', async () => {
    const forged = await open(`${relay.adminUrl}/login?token=hpl_made-up`);
    expect(forged.status).toBe(303);
    expect(forged.headers.get('location')).toBe('/?signin=link-used');
    expect(sessionCookie(forged)).toBeUndefined();
    expect((await open(`${relay.adminUrl}/login?token=${relay.adminToken}`)).status).toBe(303);
  });

  it('gives a session that still cannot write from a foreign Origin', async () => {
    const session = sessionCookie(await open(relay.core.loginLink()))!.split(';')[0]!;
    const forged = await relay.api(
      'POST',
      '/api/webhooks',
      { name: 'csrf' },
      { token: null, headers: { cookie: session, origin: 'http://evil.example' } },
    );
    expect(forged.status).toBe(403);
    const own = await relay.api(
      'POST',
      '/api/webhooks',
      { name: 'mine' },
      { token: null, headers: { cookie: session, origin: relay.adminUrl } },
    );
    expect(own.status).toBe(201);
  });
});
