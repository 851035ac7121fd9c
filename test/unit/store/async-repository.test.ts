import { describe, expect, it } from 'vitest';
import { asyncRepository } from '../../../src/main/store/store.js';

describe('asyncRepository', () => {
  it('answers each call with a promise of what the synchronous method returned', async () => {
    const repo = asyncRepository({ get: (id: string) => ({ id, n: 1 }), none: () => undefined });
    await expect(repo.get('a')).resolves.toEqual({ id: 'a', n: 1 });
    await expect(repo.none()).resolves.toBeUndefined();
  });

  it('turns a thrown error into a rejection, not a synchronous throw', async () => {
    const repo = asyncRepository({
      insert: (): void => {
        throw new Error('UNIQUE constraint failed');
      },
    });
    let promise: Promise<void> | undefined;
    expect(() => (promise = repo.insert())).not.toThrow();
    await expect(promise).rejects.toThrow('UNIQUE constraint failed');
  });

  it('runs the call in the caller tick, so writes happen in the order they were made', () => {
    const log: string[] = [];
    const repo = asyncRepository({ write: (x: string) => log.push(x) });
    void repo.write('first');
    void repo.write('second');
    expect(log).toEqual(['first', 'second']);
  });
});
