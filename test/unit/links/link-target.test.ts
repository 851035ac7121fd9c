import { describe, expect, it } from 'vitest';
import { partsFromPaste, targetOf } from '../../../src/renderer/pages/webhooks/link-target.js';

describe('the link form: a pasted hook page fills both fields', () => {
  it('GitHub: a repository or organization hook settings page, or a written target', () => {
    expect(
      partsFromPaste('github', 'https://github.com/acme/api/settings/hooks/123456789'),
    ).toEqual({
      place: 'acme/api',
      hookId: '123456789',
    });
    expect(
      partsFromPaste('github', 'https://github.com/organizations/acme/settings/hooks/45?tab=x'),
    ).toEqual({ place: 'org:acme', hookId: '45' });
    expect(partsFromPaste('github', ' acme/api#12 ')).toEqual({ place: 'acme/api', hookId: '12' });
    expect(partsFromPaste('github', 'acme/api')).toBeNull();
  });

  it("GitLab: a hook's edit page (nested groups kept) on any host", () => {
    expect(
      partsFromPaste('gitlab', 'https://gitlab.example.com/acme/team/api/-/hooks/42/edit'),
    ).toEqual({ place: 'acme/team/api', hookId: '42' });
    expect(partsFromPaste('gitlab', 'https://gitlab.com/acme')).toBeNull();
  });

  it("Stripe: the endpoint's Dashboard page gives its ID", () => {
    expect(
      partsFromPaste('stripe', 'https://dashboard.stripe.com/test/webhooks/we_1PqRsTuVwXyZ'),
    ).toEqual({ place: 'we_1PqRsTuVwXyZ', hookId: '' });
    expect(partsFromPaste('stripe', 'we_1PqRsTuVwXyZ')).toBeNull();
  });

  it('composes the target each provider takes', () => {
    expect(targetOf('github', { place: ' acme/api ', hookId: ' 7 ' })).toBe('acme/api#7');
    expect(targetOf('gitlab', { place: '1234', hookId: '42' })).toBe('1234#42');
    expect(targetOf('stripe', { place: 'we_1', hookId: '' })).toBe('we_1');
  });
});
