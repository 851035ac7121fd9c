import { describe, expect, it } from 'vitest';
import type { ExecutorConfig } from '../../../src/shared/contract/executors.js';
import { forEachStore, seedRows } from '../../support/repository-contract.js';

const command: ExecutorConfig = {
  kind: 'command',
  command: '/usr/bin/claude',
  args: ['--print', '-p', 'ü ✓'],
  cwd: '/srv/work',
  timeoutSeconds: 900,
  concurrency: 2,
  shell: false,
};

describe('the executors repository', () => {
  forEachStore((store) => {
    it('starts a factory on the record executor, and reads back a set one', async () => {
      const { factories, executors } = (await store.open()).repositories;
      await factories.ensure('default', 'Default factory', 1);

      expect(await executors.get('default')).toStrictEqual({ kind: 'record' });
      expect(await executors.set('default', command)).toBe(true);
      expect(await executors.get('default')).toStrictEqual(command);
      expect((await factories.get('default'))?.executor).toBe(JSON.stringify(command));
    });

    it('answers null and false for a factory that does not exist', async () => {
      const { executors, factories } = (await store.open()).repositories;
      expect(await executors.get('nobody')).toBeNull();
      expect(await executors.set('nobody', command)).toBe(false);
      expect(await factories.all()).toEqual([]);
    });

    it('refuses a stored executor that no longer parses, naming the fix', async () => {
      const opened = await store.open();
      await seedRows(opened.database, 'factories', [
        { id: 'odd', name: 'Odd', executor: '{"kind":"quantum"}', created_at: 1 },
      ]);

      await expect(opened.repositories.executors.get('odd')).rejects.toThrow(
        'The executor of factory "odd" is not valid; set it again.',
      );
    });
  });
});
