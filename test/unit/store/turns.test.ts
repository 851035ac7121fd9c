import { describe, expect, it } from 'vitest';
import { Turns } from '../../../src/main/store/turns.js';

describe('Turns', () => {
  it('runs at most its size at once, in order of asking, and a failed task hands its turn on', async () => {
    const turns = new Turns(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const task = (i: number) => async (): Promise<number> => {
      started.push(i);
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      if (i === 1) throw new Error('task 1 failed');
      return i;
    };
    const results = await Promise.allSettled([0, 1, 2, 3, 4, 5].map((i) => turns.run(task(i))));
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'failed'))).toEqual([
      0,
      'failed',
      2,
      3,
      4,
      5,
    ]);
    // Every turn was given back: two more start at once.
    const again = [6, 7].map((i) => turns.run(task(i)));
    expect(started.slice(6)).toEqual([6, 7]);
    await Promise.all(again);
  });
});
