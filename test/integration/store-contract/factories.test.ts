import { describe, expect, it } from 'vitest';
import { forEachStore } from '../../support/repository-contract.js';

describe('the factories repository', () => {
  forEachStore((store) => {
    it('keeps the first name a factory was ensured with; a second ensure changes nothing', async () => {
      const { factories } = (await store.open()).repositories;

      await factories.ensure('default', 'Default factory', 1_700_000_000_000);
      await factories.ensure('default', 'Another name', 1_800_000_000_000);

      expect(await factories.get('default')).toStrictEqual({
        id: 'default',
        name: 'Default factory',
        definitionsDir: null,
        executor: '{"kind":"record"}',
        createdAt: 1_700_000_000_000,
      });
      expect(await factories.get('missing')).toBeNull();
    });

    it('lists by creation time, then id in byte order (upper case before lower)', async () => {
      const { factories } = (await store.open()).repositories;
      await factories.ensure('late', 'Late', 3);
      await factories.ensure('b', 'b', 2);
      await factories.ensure('B', 'B', 2);
      await factories.ensure('a', 'a', 2);
      await factories.ensure('early', 'Early', 1);

      expect((await factories.all()).map((f) => f.id)).toEqual(['early', 'B', 'a', 'b', 'late']);
    });

    it('sets and clears the definitions directory', async () => {
      const { factories } = (await store.open()).repositories;
      await factories.ensure('ops', 'Ops', 1);

      await factories.setDefinitionsDir('ops', '/srv/hookport/ops');
      expect((await factories.get('ops'))?.definitionsDir).toBe('/srv/hookport/ops');
      await factories.setDefinitionsDir('ops', null);
      expect((await factories.get('ops'))?.definitionsDir).toBeNull();
      await factories.setDefinitionsDir('missing', '/nowhere');
      expect(await factories.all()).toHaveLength(1);
    });
  });
});
