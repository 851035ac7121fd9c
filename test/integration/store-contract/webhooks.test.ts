import { describe, expect, it } from 'vitest';
import type { NewWebhook } from '../../../src/main/store/webhooks.js';
import { forEachStore, type ContractStore } from '../../support/repository-contract.js';

const webhook = (over: Partial<NewWebhook> = {}): NewWebhook => ({
  uid: 'wh_01',
  factoryId: 'default',
  name: 'github',
  authMode: 'token',
  signatureScheme: null,
  signatureOptions: null,
  secretName: 'github',
  deliveryIdHeader: null,
  eventTypePath: null,
  enabled: true,
  createdAt: 1_700_000_000_000,
  ...over,
});

async function openWithFactories(store: ContractStore) {
  const { repositories } = await store.open();
  await repositories.factories.ensure('default', 'Default factory', 1);
  await repositories.factories.ensure('ops', 'Ops', 2);
  return repositories;
}

describe('the webhooks repository', () => {
  forEachStore((store) => {
    it('reads back what was inserted, signature options with their keys in the same order', async () => {
      const { webhooks } = await openWithFactories(store);
      const signed = webhook({
        uid: 'wh_signed',
        name: 'acme',
        authMode: 'signature',
        signatureScheme: 'hmac-sha256',
        // Not alphabetical: a JSON column that reorders keys (jsonb) would show here.
        signatureOptions: { prefix: 'sha256=', header: 'x-acme-signature', encoding: 'base64' },
        secretName: 'acme-signing',
        deliveryIdHeader: 'x-acme-delivery',
        eventTypePath: '$.type',
        enabled: false,
      });
      await webhooks.insert(webhook());
      await webhooks.insert(signed);

      const plain = await webhooks.get('wh_01');
      expect(plain).toStrictEqual({ ...webhook(), deletedAt: null });
      const read = await webhooks.get('wh_signed');
      expect(read).toStrictEqual({ ...signed, deletedAt: null });
      expect(JSON.stringify(read?.signatureOptions)).toBe(JSON.stringify(signed.signatureOptions));
      expect(typeof read?.createdAt).toBe('number');
      expect(await webhooks.get('wh_missing')).toBeNull();
    });

    it('lists live webhooks by creation time then UID in byte order, per factory or all', async () => {
      const { webhooks } = await openWithFactories(store);
      await webhooks.insert(webhook({ uid: 'wh_c', name: 'c', createdAt: 30 }));
      await webhooks.insert(webhook({ uid: 'wh_b', name: 'b', createdAt: 20 }));
      await webhooks.insert(webhook({ uid: 'wh_B', name: 'B', createdAt: 20 }));
      await webhooks.insert(webhook({ uid: 'wh_ops', name: 'o', factoryId: 'ops', createdAt: 10 }));
      await webhooks.insert(webhook({ uid: 'wh_gone', name: 'gone', createdAt: 5 }));
      await webhooks.softDelete('wh_gone', 40);

      expect((await webhooks.live()).map((w) => w.uid)).toEqual(['wh_ops', 'wh_B', 'wh_b', 'wh_c']);
      expect((await webhooks.list('default')).map((w) => w.uid)).toEqual(['wh_B', 'wh_b', 'wh_c']);
      expect(await webhooks.list('nobody')).toEqual([]);
      expect(await webhooks.countLive('default')).toBe(3);
      expect(await webhooks.countLive('ops')).toBe(1);
      expect(await webhooks.countLive('nobody')).toBe(0);
    });

    it('hides a deleted webhook from names and lists, keeps it by UID, and frees its name', async () => {
      const { webhooks } = await openWithFactories(store);
      await webhooks.insert(webhook({ uid: 'wh_old' }));

      expect(await webhooks.softDelete('wh_old', 50)).toBe(true);
      expect(await webhooks.softDelete('wh_old', 60)).toBe(false);
      expect(await webhooks.softDelete('wh_missing', 60)).toBe(false);
      expect(await webhooks.findByName('default', 'github')).toBeNull();
      expect((await webhooks.get('wh_old'))?.deletedAt).toBe(50);

      await webhooks.insert(webhook({ uid: 'wh_new' }));
      expect((await webhooks.findByName('default', 'github'))?.uid).toBe('wh_new');
      expect(await webhooks.findByName('ops', 'github')).toBeNull();
    });

    it('refuses a second live webhook of the same name in a factory, by insert or rename', async () => {
      const { webhooks } = await openWithFactories(store);
      await webhooks.insert(webhook({ uid: 'wh_1', name: 'github' }));
      await webhooks.insert(webhook({ uid: 'wh_2', name: 'stripe' }));
      await webhooks.insert(webhook({ uid: 'wh_3', name: 'github', factoryId: 'ops' }));

      await expect(webhooks.insert(webhook({ uid: 'wh_4', name: 'github' }))).rejects.toThrow();
      await expect(webhooks.update('wh_2', { name: 'github' })).rejects.toThrow();
      await expect(webhooks.insert(webhook({ uid: 'wh_1', name: 'other' }))).rejects.toThrow();
      expect((await webhooks.list('default')).map((w) => w.name)).toEqual(['github', 'stripe']);
    });

    it('updates only the fields given: an absent field keeps its value, null clears it', async () => {
      const { webhooks } = await openWithFactories(store);
      await webhooks.insert(webhook({ deliveryIdHeader: 'x-id', eventTypePath: '$.kind' }));

      const renamed = await webhooks.update('wh_01', { name: 'gh', enabled: false });
      expect(renamed).toStrictEqual({
        ...webhook({ deliveryIdHeader: 'x-id', eventTypePath: '$.kind' }),
        name: 'gh',
        enabled: false,
        deletedAt: null,
      });
      const cleared = await webhooks.update('wh_01', { deliveryIdHeader: null });
      expect([cleared?.deliveryIdHeader, cleared?.eventTypePath]).toEqual([null, '$.kind']);
      expect(await webhooks.get('wh_01')).toStrictEqual(cleared);

      expect(await webhooks.update('wh_missing', { name: 'x' })).toBeNull();
      await webhooks.softDelete('wh_01', 9);
      expect(await webhooks.update('wh_01', { name: 'after' })).toBeNull();
      expect((await webhooks.get('wh_01'))?.name).toBe('gh');
    });

    it('redefines everything but name and UID, and leaves a deleted webhook alone', async () => {
      const { webhooks } = await openWithFactories(store);
      await webhooks.insert(webhook());
      await webhooks.insert(webhook({ uid: 'wh_gone', name: 'gone' }));
      await webhooks.softDelete('wh_gone', 5);
      const definition = {
        authMode: 'signature' as const,
        signatureScheme: 'hmac-sha256' as const,
        signatureOptions: { header: 'x-sig', encoding: 'hex' as const, prefix: '' },
        secretName: 'shared',
        deliveryIdHeader: 'x-id',
        eventTypePath: '$.event',
        enabled: false,
      };

      await webhooks.redefine('wh_01', definition);
      await webhooks.redefine('wh_gone', definition);

      expect(await webhooks.get('wh_01')).toStrictEqual({
        ...webhook(),
        ...definition,
        deletedAt: null,
      });
      expect((await webhooks.get('wh_gone'))?.authMode).toBe('token');
      await webhooks.redefine('wh_01', { ...definition, signatureOptions: null });
      expect((await webhooks.get('wh_01'))?.signatureOptions).toBeNull();
    });

    it('finds the live webhooks using a secret, by name', async () => {
      const { webhooks } = await openWithFactories(store);
      await webhooks.insert(webhook({ uid: 'wh_1', name: 'zeta', secretName: 'shared' }));
      await webhooks.insert(webhook({ uid: 'wh_2', name: 'Alpha', secretName: 'shared' }));
      await webhooks.insert(webhook({ uid: 'wh_3', name: 'beta', secretName: 'shared' }));
      await webhooks.insert(webhook({ uid: 'wh_4', name: 'own', secretName: 'own' }));
      await webhooks.insert(
        webhook({ uid: 'wh_5', name: 'x', factoryId: 'ops', secretName: 'shared' }),
      );
      await webhooks.softDelete('wh_3', 1);

      expect((await webhooks.usingSecret('default', 'shared')).map((w) => w.name)).toEqual([
        'Alpha',
        'zeta',
      ]);
      expect(await webhooks.usingSecret('default', 'none')).toEqual([]);
    });
  });
});
