import { describe, expect, it } from 'vitest';
import { forEachStore, type ContractStore } from '../../support/repository-contract.js';

async function openWithFactories(store: ContractStore) {
  const { repositories } = await store.open();
  await repositories.factories.ensure('default', 'Default factory', 1);
  await repositories.factories.ensure('ops', 'Ops', 2);
  return repositories;
}

const FINGERPRINT = 'sha256:4f2a…9c1e';

describe('the secrets repository (names and fingerprints)', () => {
  forEachStore((store) => {
    it('reads back a secret’s name and fingerprint; a new one was never rotated', async () => {
      const { secrets } = await openWithFactories(store);
      await secrets.insert({
        factoryId: 'default',
        name: 'github',
        fingerprint: FINGERPRINT,
        createdAt: 1_700_000_000_000,
      });

      expect(await secrets.get('default', 'github')).toStrictEqual({
        factoryId: 'default',
        name: 'github',
        fingerprint: FINGERPRINT,
        createdAt: 1_700_000_000_000,
        rotatedAt: null,
      });
      expect(await secrets.get('ops', 'github')).toBeNull();
    });

    it('lists by factory then name in byte order', async () => {
      const { secrets } = await openWithFactories(store);
      for (const [factoryId, name] of [
        ['ops', 'a'],
        ['default', 'stripe'],
        ['default', 'Zeta'],
        ['default', 'github'],
      ] as const) {
        await secrets.insert({ factoryId, name, fingerprint: FINGERPRINT, createdAt: 1 });
      }

      const names = (list: { factoryId: string; name: string }[]) =>
        list.map((s) => `${s.factoryId}/${s.name}`);
      expect(names(await secrets.all())).toEqual([
        'default/Zeta',
        'default/github',
        'default/stripe',
        'ops/a',
      ]);
      expect(names(await secrets.list('default'))).toEqual([
        'default/Zeta',
        'default/github',
        'default/stripe',
      ]);
      expect(await secrets.list('nobody')).toEqual([]);
    });

    it('rotates the fingerprint with its time, and removes', async () => {
      const { secrets } = await openWithFactories(store);
      await secrets.insert({
        factoryId: 'default',
        name: 'github',
        fingerprint: 'old',
        createdAt: 1,
      });
      await secrets.insert({ factoryId: 'ops', name: 'github', fingerprint: 'ops', createdAt: 1 });

      await secrets.rotate({
        factoryId: 'default',
        name: 'github',
        fingerprint: 'new',
        rotatedAt: 7,
      });

      expect(await secrets.get('default', 'github')).toMatchObject({
        fingerprint: 'new',
        createdAt: 1,
        rotatedAt: 7,
      });
      expect(await secrets.get('ops', 'github')).toMatchObject({
        fingerprint: 'ops',
        rotatedAt: null,
      });
      await secrets.remove('default', 'github');
      await secrets.remove('default', 'github');
      expect(await secrets.get('default', 'github')).toBeNull();
      expect((await secrets.all()).map((s) => s.factoryId)).toEqual(['ops']);
    });

    it('refuses a second secret of the same name in a factory, or one in an unknown factory', async () => {
      const { secrets } = await openWithFactories(store);
      const github = { factoryId: 'default', name: 'github', fingerprint: 'a', createdAt: 1 };
      await secrets.insert(github);

      await expect(secrets.insert({ ...github, fingerprint: 'b' })).rejects.toThrow();
      await expect(secrets.insert({ ...github, factoryId: 'nobody' })).rejects.toThrow();
      expect(await secrets.get('default', 'github')).toMatchObject({ fingerprint: 'a' });
    });
  });
});
