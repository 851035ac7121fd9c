import { describe, expect, it } from 'vitest';
import { reportResume } from '../../../src/main/links/power-resume.js';
import { WakeDetector, type Ticker } from '../../../src/main/links/wake-detector.js';
import { powerMonitor } from '../../support/electron-standin/electron.js';

function manual() {
  let now = 1_700_000_000_000;
  let tick: () => void = () => undefined;
  const ticker: Ticker = {
    every: (_ms, fn) => {
      tick = fn;
      return () => undefined;
    },
  };
  return {
    ticker,
    now: () => now,
    advance: (ms: number) => {
      now += ms;
      tick();
    },
  };
}

describe('noticing that the machine slept', () => {
  it('a tick that finds more than 10 s passed reports a wake; ordinary ticks do not', () => {
    const clock = manual();
    const wakes: Array<[number, number]> = [];
    new WakeDetector((at, slept) => wakes.push([at, slept]), clock.now, clock.ticker).start();
    clock.advance(1000);
    clock.advance(10_000);
    expect(wakes).toEqual([]);
    clock.advance(6 * 3600_000 + 1000);
    expect(wakes).toEqual([[clock.now(), 6 * 3600]]);
  });

  it("Electron's resume reports at once, and the timer does not report the same sleep again", () => {
    let now = 1_700_000_000_000;
    let tick: () => void = () => undefined;
    const ticker: Ticker = {
      every: (_ms, fn) => {
        tick = fn;
        return () => undefined;
      },
    };
    const wakes: Array<[number, number]> = [];
    const detector = new WakeDetector(
      (at, slept) => wakes.push([at, slept]),
      () => now,
      ticker,
    );
    detector.start();
    const stop = reportResume(
      powerMonitor,
      (at, slept) => detector.resumed(at, slept),
      () => now,
    );

    powerMonitor.emit('suspend');
    now += 3600_000;
    powerMonitor.emit('resume');
    expect(wakes).toEqual([[now, 3600]]);
    now += 1000;
    tick();
    expect(wakes).toHaveLength(1);

    stop();
    expect(powerMonitor.listenerCount('resume')).toBe(0);
  });
});
