import { afterEach, describe, expect, it } from 'vitest';
import {
  REFUSALS_KEPT,
  RefusalTally,
  redactPath,
  type Refusal,
} from '../../../src/main/ingress/refusal-tally.js';
import { silentLogger } from '../../../src/main/log.js';

const HOUR = 3_600_000;
const UID = `wh_${'a'.repeat(24)}`;
const TOKEN = 'Zx8_Kp2-Qm9.Lr4~Tt7-Uv1_Ww3xY5zA'; // URL-safe, 32 characters

const refusal = (over: Partial<Refusal> = {}): Refusal => ({
  at: 1_000 * HOUR,
  method: 'POST',
  path: `/webhooks/w/${UID}`,
  status: 404,
  reason: 'no such webhook (unknown or deleted)',
  client: '203.0.113.7',
  webhookUid: null,
  ...over,
});

describe('the refused-requests ring', () => {
  let tally: RefusalTally;
  afterEach(() => tally.stop());

  it(`keeps the newest ${REFUSALS_KEPT.toLocaleString('en-US')}, newest first, and counts every one`, () => {
    tally = new RefusalTally(silentLogger);
    const total = REFUSALS_KEPT + 250;
    for (let i = 0; i < total; i++) tally.add(refusal({ at: 1_000 * HOUR + i, reason: `r${i}` }));
    const newest = tally.newest(REFUSALS_KEPT + 100);
    expect(newest).toHaveLength(REFUSALS_KEPT);
    expect(newest[0]!.reason).toBe(`r${total - 1}`);
    expect(newest.at(-1)!.reason).toBe(`r${total - REFUSALS_KEPT}`);
    expect(tally.countsSinceStart()).toEqual({ 404: total, 405: 0, 429: 0 });
  });

  it('filters by webhook, and counts the last hour by status as time moves on', () => {
    tally = new RefusalTally(silentLogger);
    const start = 1_000 * HOUR;
    tally.add(refusal({ at: start, status: 404, webhookUid: UID, reason: 'webhook is disabled' }));
    tally.add(refusal({ at: start + 10 * 60_000, status: 429, webhookUid: UID }));
    tally.add(refusal({ at: start + 20 * 60_000, status: 405 }));
    expect(tally.newest(10, UID).map((r) => r.status)).toEqual([429, 404]);
    expect(tally.countsLastHour(start + 30 * 60_000)).toEqual({ 404: 1, 405: 1, 429: 1 });
    // An hour and a bit later the first two have aged out; the 405 (at +20 min) has not.
    expect(tally.countsLastHour(start + 65 * 60_000)).toEqual({ 404: 0, 405: 1, 429: 1 });
    expect(tally.countsLastHour(start + 79 * 60_000)).toEqual({ 404: 0, 405: 1, 429: 0 });
    expect(tally.countsLastHour(start + 3 * HOUR)).toEqual({ 404: 0, 405: 0, 429: 0 });
    expect(tally.countsSinceStart()).toEqual({ 404: 1, 405: 1, 429: 1 });
  });

  it('never keeps a URL token, a query or an endless path', () => {
    tally = new RefusalTally(silentLogger);
    tally.add(refusal({ path: `/webhooks/w/${UID}/${TOKEN}` }));
    tally.add(refusal({ path: `/webhooks/w/${UID}/${TOKEN}/extra?token=${TOKEN}` }));
    tally.add(refusal({ path: `/webhook/w/${TOKEN}` }));
    tally.add(refusal({ path: `/${'a/'.repeat(500)}` }));
    const kept = tally.newest(10).map((r) => r.path);
    expect(JSON.stringify(kept)).not.toContain(TOKEN);
    expect(kept[3]).toBe(`/webhooks/w/${UID}/{token}`);
    expect(kept[2]).toBe(`/webhooks/w/${UID}/{token}/{token}?…`);
    expect(kept[1]).toBe('/webhook/w/{token}');
    expect(kept[0]!.length).toBeLessThanOrEqual(201);
  });

  it('redacts a path sent again as it did the first time, whatever came between', () => {
    tally = new RefusalTally(silentLogger);
    const tokened = `/webhooks/w/${UID}/${TOKEN}`;
    for (const path of [tokened, tokened, '/wp-login.php', tokened]) tally.add(refusal({ path }));
    expect(tally.newest(10).map((r) => r.path)).toEqual([
      `/webhooks/w/${UID}/{token}`,
      '/wp-login.php',
      `/webhooks/w/${UID}/{token}`,
      `/webhooks/w/${UID}/{token}`,
    ]);
  });

  it('keeps what is plainly not a token', () => {
    expect(redactPath('/wp-login.php')).toBe('/wp-login.php');
    expect(redactPath(`/webhooks/w/${UID}`)).toBe(`/webhooks/w/${UID}`);
    expect(redactPath('/webhooks/w/not-a-uid')).toBe('/webhooks/w/not-a-uid');
    expect(redactPath('/healthz?x=1')).toBe('/healthz?…');
  });
});
