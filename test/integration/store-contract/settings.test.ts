import { describe, expect, it } from 'vitest';
import { forEachStore } from '../../support/repository-contract.js';

describe('the settings repository', () => {
  forEachStore((store) => {
    it('reads back any JSON value as written, key order included; unknown keys are undefined', async () => {
      const { settings } = (await store.open()).repositories;
      const values: Record<string, unknown> = {
        object: { zeta: 1, alpha: [true, null, 'ü ✓'], nested: { b: 2.5, a: -0 } },
        number: 42,
        string: 'text with "quotes" and \\ and\nnewline',
        boolean: false,
        list: [3, 1, 2],
      };
      for (const [key, value] of Object.entries(values)) await settings.set(key, value);

      for (const [key, value] of Object.entries(values)) {
        const read = await settings.get(key);
        expect(read, key).toStrictEqual(JSON.parse(JSON.stringify(value)));
        expect(JSON.stringify(read), key).toBe(JSON.stringify(value));
      }
      expect(await settings.get('missing')).toBeUndefined();
    });

    it('overwrites a key, and null or undefined removes it', async () => {
      const { settings } = (await store.open()).repositories;
      await settings.set('retention', { days: 30 });
      await settings.set('retention', { days: 7 });
      expect(await settings.get('retention')).toStrictEqual({ days: 7 });

      await settings.set('retention', null);
      expect(await settings.get('retention')).toBeUndefined();
      await settings.set('other', 'x');
      await settings.set('other', undefined);
      expect(await settings.get('other')).toBeUndefined();
      await settings.set('never-set', null);
      expect(await settings.get('never-set')).toBeUndefined();
    });
  });
});
