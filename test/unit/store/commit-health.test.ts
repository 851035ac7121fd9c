import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CommitHealth,
  HEALTH_FRESH_MS,
  HEALTH_PROBE_TIMEOUT_MS,
} from '../../../src/main/store/commit-health.js';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
  code: 'ECONNREFUSED',
});
const readOnly = Object.assign(new Error('cannot execute UPDATE in a read-only transaction'), {
  code: '25006',
});

function setup() {
  let time = 0;
  const probe = { up: true as boolean | 'hang', calls: 0, error: refused as Error };
  const lines: string[] = [];
  const health = new CommitHealth({
    now: () => time,
    log: { info: (l) => lines.push(l), warn: (l) => lines.push(l), error: (l) => lines.push(l) },
    probe: () => {
      probe.calls++;
      if (probe.up === 'hang') return new Promise<void>(() => undefined);
      return probe.up ? Promise.resolve() : Promise.reject(probe.error);
    },
  });
  return { health, probe, lines, advance: (ms: number) => (time += ms) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('whether the store can commit, for /healthz', () => {
  it('trusts a fresh batch commit and probes only when there is none', async () => {
    const { health, probe, advance } = setup();
    health.committed();
    expect(await health.check()).toEqual({ ok: true });
    expect(probe.calls).toBe(0);
    advance(HEALTH_FRESH_MS);
    expect(await health.check()).toEqual({ ok: true });
    expect(probe.calls).toBe(1);
  });

  it('answers a failed probe, cached, without probing on every check, and recovers', async () => {
    const { health, probe, advance, lines } = setup();
    probe.up = false;
    expect(await health.check()).toEqual({
      ok: false,
      reason: 'unreachable',
      code: null,
      since: 0,
    });
    await Promise.all([health.check(), health.check(), health.check()]);
    expect(probe.calls).toBe(1);
    advance(HEALTH_FRESH_MS);
    expect((await health.check()).ok).toBe(false);
    expect(probe.calls).toBe(2);
    expect(lines.filter((l) => l.includes('cannot commit'))).toHaveLength(1);

    probe.up = true;
    advance(HEALTH_FRESH_MS);
    expect(await health.check()).toEqual({ ok: true });
    expect(lines.at(-1)).toMatch(/commits again/);
  });

  it('never answers 503 for one failed batch when a probe commits (one bad item is not an outage)', async () => {
    const { health, probe } = setup();
    health.committed();
    health.commitFailed(new Error('value out of range for type bigint'));
    expect(await health.check()).toEqual({ ok: true });
    expect(probe.calls).toBe(1);
  });

  it('says a store that refuses writes is refusing, with its code', async () => {
    const { health, probe } = setup();
    probe.up = false;
    probe.error = readOnly;
    expect(await health.check()).toMatchObject({ ok: false, reason: 'refused', code: '25006' });
  });

  it('counts a probe that does not commit in time as failed', async () => {
    vi.useFakeTimers();
    const { health, probe } = setup();
    probe.up = 'hang';
    const answer = health.check();
    await vi.advanceTimersByTimeAsync(HEALTH_PROBE_TIMEOUT_MS);
    expect(await answer).toMatchObject({ ok: false, reason: 'timeout' });
  });
});
