import { describe, expect, it } from 'vitest';
import { contract } from '../../../src/shared/contract/index.js';
import { checkInput } from '../../../src/renderer/components/live-check.js';

const createWebhook = contract['webhooks.create'].input;
const settings = contract['settings.update'].input;
const labels = { name: 'Name', secretName: 'Secret name', deliveryIdHeader: 'Delivery ID header' };

describe('a form checked as typed by the contract’s own rule', () => {
  it('says which characters a name refuses and offers one it accepts', () => {
    const check = checkInput(createWebhook, { name: 'Nightly build report' }, labels);
    expect(check.typing?.path).toBe('name');
    expect(check.typing?.message).toBe('Name can’t contain spaces: try “Nightly-build-report”.');
  });

  it('names a bad first character and a name too long', () => {
    expect(checkInput(createWebhook, { name: '-nightly' }, labels).typing?.message).toBe(
      'Name can’t start with “-”: start with a letter or digit.',
    );
    expect(checkInput(createWebhook, { name: 'a'.repeat(70) }, labels).typing?.message).toBe(
      'Name can be at most 64 characters (this has 70).',
    );
  });

  it('waits for Save before calling a blank field a problem', () => {
    const check = checkInput(createWebhook, { name: '' }, labels);
    expect(check.typing).toBeUndefined();
    expect(check.submit?.message).toBe('Name is required.');
  });

  it('says numbers out of range as a range', () => {
    const check = checkInput(settings, { retentionDays: 0 }, { retentionDays: 'Retention' });
    expect(check.typing?.message).toMatch(/^Retention must be \d+ or more\.$/);
  });

  it('passes what the relay accepts and ignores fields the form does not show', () => {
    expect(checkInput(createWebhook, { name: 'github-prod' }, labels).typing).toBeUndefined();
    expect(
      checkInput(createWebhook, { name: 'ok', authMode: 'nope' }, labels).submit,
    ).toBeUndefined();
  });
});
