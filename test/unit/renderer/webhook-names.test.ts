import { describe, expect, it } from 'vitest';
import type { Automation } from '../../../src/shared/contract/automations.js';
import type { Webhook } from '../../../src/shared/contract/webhooks.js';
import {
  deletedWebhookNote,
  labelOf,
  webhookLabels,
} from '../../../src/renderer/pages/automations/webhook-names.js';

const live = [{ uid: 'wh_live', name: 'gh-hook' }] as Webhook[];

function automation(webhooks: Automation['webhooks']): Automation {
  const deletedWebhookUids = webhooks.filter((w) => w.deleted).map((w) => w.uid);
  return { webhooks, deletedWebhookUids } as Automation;
}

/** How the automation editor names webhooks that were deleted while an automation pointed at them. */
describe('naming deleted webhooks in the automation editor', () => {
  it('uses the remembered name with "(deleted)", and the UID only when no name is known', () => {
    const labels = webhookLabels(live, [
      { uid: 'wh_gone', name: 'tok-hook', deleted: true },
      { uid: 'wh_never', name: null, deleted: true },
    ]);
    expect(labelOf(labels, 'wh_live')).toBe('gh-hook');
    expect(labelOf(labels, 'wh_gone')).toBe('tok-hook (deleted)');
    expect(labelOf(labels, 'wh_never')).toBe('wh_never (deleted)');
    expect(labelOf(labels, 'wh_unheard')).toBe('wh_unheard (deleted)');
  });

  it('says by name whether the automation still fires from its other webhooks', () => {
    const all = automation([{ uid: 'wh_gone', name: 'tok-hook', deleted: true }]);
    expect(deletedWebhookNote(all, webhookLabels(live, all.webhooks))).toBe(
      'This automation points at tok-hook (deleted): it fires no more; point its triggers at another webhook or remove them.',
    );
    const some = automation([
      { uid: 'wh_gone', name: 'tok-hook', deleted: true },
      { uid: 'wh_live', name: 'gh-hook', deleted: false },
    ]);
    expect(deletedWebhookNote(some, webhookLabels(live, some.webhooks))).toBe(
      'This automation points at tok-hook (deleted); its other webhooks still fire.',
    );
    const none = automation([{ uid: 'wh_live', name: 'gh-hook', deleted: false }]);
    expect(deletedWebhookNote(none, webhookLabels(live, none.webhooks))).toBeNull();
  });
});
