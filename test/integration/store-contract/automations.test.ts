import { describe, expect, it } from 'vitest';
import type { AutomationRecord } from '../../../src/main/store/automations.js';
import { forEachStore, type ContractStore } from '../../support/repository-contract.js';

const UID = 'wh_01HZX3K7Q9M2V8T4R6N0P5W1YB';

const automation = (over: Partial<AutomationRecord> = {}): AutomationRecord => ({
  id: 'aut_01',
  factoryId: 'default',
  name: 'triage',
  prompt: 'Label the issue.',
  enabled: true,
  triggers: [{ provider: 'webhook', event: 'received', filter: { webhook_ids: [UID] } }],
  sourceFile: null,
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
  ...over,
});

async function openWithFactories(store: ContractStore) {
  const { repositories } = await store.open();
  await repositories.factories.ensure('default', 'Default factory', 1);
  await repositories.factories.ensure('ops', 'Ops', 2);
  return repositories;
}

describe('the automations repository', () => {
  forEachStore((store) => {
    it('reads back triggers byte for byte: key order, unicode and numbers as written', async () => {
      const { automations } = await openWithFactories(store);
      const record = automation({
        prompt: 'Résumé ✓ — «quoted» and \\ backslash\nsecond line',
        enabled: false,
        sourceFile: 'automations/triage.yaml',
        triggers: [
          {
            // Not alphabetical, as a jsonb column would reorder them.
            provider: 'webhook',
            event: 'received',
            filter: {
              webhook_ids: [UID],
              payload: { zeta: { eq: 1.5 }, action: { not_in: ['closed', 'ünïcode'] } },
              headers: { 'X-GitHub-Event': { eq: 'issues' } },
            },
          },
        ] as AutomationRecord['triggers'],
      });
      await automations.insert(record);

      const read = await automations.get('aut_01');
      expect(read).toStrictEqual(record);
      expect(JSON.stringify(read?.triggers)).toBe(JSON.stringify(record.triggers));
      expect(await automations.get('aut_missing')).toBeNull();
    });

    it('lists all by creation time then id, and a factory’s by name then id (byte order)', async () => {
      const { automations } = await openWithFactories(store);
      await automations.insert(automation({ id: 'aut_3', name: 'beta', createdAt: 3 }));
      await automations.insert(automation({ id: 'aut_2', name: 'Zulu', createdAt: 2 }));
      await automations.insert(automation({ id: 'aut_1', name: 'alpha', createdAt: 2 }));
      await automations.insert(automation({ id: 'aut_0', name: 'alpha', createdAt: 9 }));
      await automations.insert(automation({ id: 'aut_9', name: 'ops', factoryId: 'ops' }));

      expect((await automations.all()).map((a) => a.id)).toEqual([
        'aut_1',
        'aut_2',
        'aut_3',
        'aut_0',
        'aut_9',
      ]);
      expect((await automations.list('default')).map((a) => a.id)).toEqual([
        'aut_2',
        'aut_0',
        'aut_1',
        'aut_3',
      ]);
      expect(await automations.list('nobody')).toEqual([]);
    });

    it('updates everything but its factory and creation time', async () => {
      const { automations } = await openWithFactories(store);
      await automations.insert(automation());
      const changed = automation({
        factoryId: 'ops',
        name: 'triage v2',
        prompt: 'New prompt',
        enabled: false,
        triggers: [],
        sourceFile: 'automations/triage.yaml',
        createdAt: 5,
        updatedAt: 1_700_000_060_000,
      });

      await automations.update(changed);

      expect(await automations.get('aut_01')).toStrictEqual({
        ...changed,
        factoryId: 'default',
        createdAt: 1_700_000_000_000,
      });
      await automations.update(automation({ id: 'aut_missing' }));
      expect(await automations.get('aut_missing')).toBeNull();
    });

    it('removes once, and refuses a duplicate id or an unknown factory', async () => {
      const { automations } = await openWithFactories(store);
      await automations.insert(automation());

      await expect(automations.insert(automation({ name: 'again' }))).rejects.toThrow();
      await expect(
        automations.insert(automation({ id: 'aut_02', factoryId: 'nobody' })),
      ).rejects.toThrow();
      expect(await automations.remove('aut_01')).toBe(true);
      expect(await automations.remove('aut_01')).toBe(false);
      expect(await automations.all()).toEqual([]);
    });
  });
});
