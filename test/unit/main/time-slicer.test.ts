import { describe, expect, it } from 'vitest';
import { SliceTurns, TimeSlicer } from '../../../src/main/service/time-slicer.js';

/**
 * Scans of the management API (filter lab, field scan) take the event loop in slices, one scan's
 * slice at a time however many run at once: many scans started together (a `view` token may)
 * hold the loop one slice long per turn, never one slice per scan.
 */
describe('TimeSlicer turns', () => {
  /** A scan of three slices, each with an await inside it (as a page read has). */
  async function scan(name: string, slicer: TimeSlicer, log: string[], failAt = -1): Promise<void> {
    try {
      for (let i = 0; i < 3; i++) {
        await slicer.turn();
        log.push(`${name}${i}+`);
        await Promise.resolve();
        if (i === failAt) throw new Error(`${name} failed`);
        log.push(`${name}${i}-`);
      }
    } finally {
      slicer.done();
    }
  }

  it('never runs two scans’ slices at once, and alternates between them', async () => {
    const turns = new SliceTurns();
    const log: string[] = [];
    // A budget of 0: every item ends the slice.
    await Promise.all([
      scan('a', new TimeSlicer(0, turns), log),
      scan('b', new TimeSlicer(0, turns), log),
    ]);
    expect(log).toEqual([
      'a0+',
      'a0-',
      'b0+',
      'b0-',
      'a1+',
      'a1-',
      'b1+',
      'b1-',
      'a2+',
      'a2-',
      'b2+',
      'b2-',
    ]);
  });

  it('hands the turn on when a scan fails, so the others finish', async () => {
    const turns = new SliceTurns();
    const log: string[] = [];
    const failing = scan('a', new TimeSlicer(0, turns), log, 0);
    const other = scan('b', new TimeSlicer(0, turns), log);
    await expect(failing).rejects.toThrow('a failed');
    await other;
    expect(log).toEqual(['a0+', 'b0+', 'b0-', 'b1+', 'b1-', 'b2+', 'b2-']);
  });

  it('lets the event loop turn between slices', async () => {
    const turns = new SliceTurns();
    const log: string[] = [];
    const scanning = scan('a', new TimeSlicer(0, turns), log);
    setImmediate(() => log.push('loop'));
    await scanning;
    expect(log.indexOf('loop')).toBeGreaterThan(-1);
    expect(log.indexOf('loop')).toBeLessThan(log.indexOf('a1+'));
  });
});
