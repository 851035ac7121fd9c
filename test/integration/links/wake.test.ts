import { afterEach, describe, expect, it } from 'vitest';
import type { Ticker } from '../../../src/main/links/wake-detector.js';
import { GitHubStandin } from '../../support/providers/github-standin.js';
import {
  deliveriesOf,
  goPublic,
  linkedRelay,
  linkGitHub,
  storeToken,
} from '../../support/links.js';
import type { TestRelay } from '../../support/relay.js';

const TOKEN = 'ghp_standin_token_wake';
const HOOK_SECRET = 'hook-secret-wake-0123456789abcdef';
const SIX_HOURS_TEN_MS = (6 * 60 + 10) * 60_000;

/** A one-second timer the test ticks by hand, and a wall clock it moves: no real sleep. */
function handClock() {
  let offset = 0;
  const ticks: Array<() => void> = [];
  const ticker: Ticker = {
    every: (_ms, tick) => {
      ticks.push(tick);
      return () => ticks.splice(ticks.indexOf(tick), 1);
    },
  };
  return {
    ticker,
    now: () => Date.now() + offset,
    sleep(ms: number) {
      offset += ms;
    },
    tick: () => ticks.forEach((tick) => tick()),
  };
}

describe('waking from sleep', () => {
  let github: GitHubStandin;
  let relay: TestRelay;
  afterEach(async () => {
    await relay.stop();
    await github.stop();
  });

  it('a jump of the wall clock between two ticks recovers every link, and the status says so', async () => {
    const clock = handClock();
    github = await new GitHubStandin(TOKEN, clock.now).start();
    relay = await linkedRelay({
      now: clock.now,
      links: { timing: { retryUnitMs: 5 }, wakeTicker: clock.ticker },
    });
    await storeToken(relay, 'github-token', TOKEN);
    await goPublic(relay);
    const { webhook, ingressUrl } = await relay.createWebhook({
      name: 'gh',
      authMode: 'signature',
      signatureScheme: 'github',
      secret: HOOK_SECRET,
    });
    const hook = github.addHook('acme/api', ingressUrl, HOOK_SECRET);
    expect((await linkGitHub(relay, webhook.uid, github, hook)).status).toBe(200);

    clock.tick();
    await relay.core.links.idle();
    expect(github.redeliveryRequests).toEqual([]);

    clock.sleep(SIX_HOURS_TEN_MS);
    for (let n = 1; n <= 3; n++) await github.send(hook, 'push', { n }, { relayAsleep: true });
    clock.tick();
    await relay.core.links.idle();
    await github.server.idle();

    expect(github.redeliveryRequests).toHaveLength(3);
    const entries = await deliveriesOf(relay, webhook.uid);
    expect(entries.filter((d) => d.recovered && d.label === 'Accepted')).toHaveLength(3);
    const { lastWake } = await relay.call('relay.status', {});
    expect(lastWake?.recovered).toBe(3);
    // The real seconds this test took between the two ticks are part of the gap.
    expect(Math.abs(lastWake!.sleptSeconds - SIX_HOURS_TEN_MS / 1000)).toBeLessThan(60);
  });
});
