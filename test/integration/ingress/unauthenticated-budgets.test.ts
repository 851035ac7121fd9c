import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_AUTH_FAILURE_STREAK } from '../../../src/shared/contract/alarms.js';
import {
  FAILED_AUTH_BUDGET,
  UNAUTHENTICATED_PER_WEBHOOK_BUDGET,
} from '../../../src/main/ingress/limits.js';
import { UNAUTHENTICATED_HEADER_BYTES } from '../../../src/main/ingress/steps/bounded-headers.js';
import { getDelivery, listDeliveries, logSettled } from '../../support/deliveries.js';
import { exchangeRaw, requestHead } from '../../support/raw-http.js';
import {
  postDelivery,
  startTestRelay,
  type CreatedWebhook,
  type TestRelay,
} from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';
import { waitFor } from '../../support/wait.js';
import { SENDERS } from '../signatures/support/senders.js';

const github = SENDERS.find((s) => s.scheme === 'github')!;

/**
 * Issue 24: every log entry written before the sender authenticated (a 401, a 413 on a signature
 * webhook) spends the (webhook, client) budget, an IPv6 /64 counting as one client, and the
 * webhook's own budget; past either, 429 + Retry-After and no entry. `trustProxy` lets the test
 * speak from many addresses through X-Forwarded-For.
 */
describe.each(storeKinds)('budgets for unauthenticated log entries (%s)', (storeKind) => {
  let relay: TestRelay;
  let hook: CreatedWebhook;
  let path: string;
  beforeEach(async () => {
    relay = await startTestRelay({ ...storeConfig(storeKind), trustProxy: true });
    hook = await relay.createWebhook({
      name: 'github',
      authMode: 'signature',
      signatureScheme: 'github',
      secret: github.secret,
    });
    path = `/webhooks/w/${hook.webhook.uid}`;
  });
  afterEach(() => relay.stop());

  /** Headers only, declaring a body past the limit: 413 before a byte is read, or 429. */
  const headersOnly = async (from: string, extra: Array<[string, string]> = []) => {
    const [answer] = await exchangeRaw(relay.ingressUrl, [
      requestHead('POST', path, relay.ingressUrl, [
        ['Content-Length', '10000000'],
        ['X-Forwarded-For', from],
        ...extra,
      ]),
    ]);
    return answer!;
  };
  const forged = (from: string) =>
    postDelivery(hook.ingressUrl, '{"forged":true}', {
      'x-hub-signature-256': `sha256=${'0'.repeat(64)}`,
      'x-forwarded-for': from,
    });
  const genuine = (from: string) => {
    const body = github.body('genuine', 0);
    return postDelivery(hook.ingressUrl, body, {
      ...github.sign(body, github.secret, 0, randomUUID()),
      'x-forwarded-for': from,
    });
  };
  const entries = async () => {
    await logSettled(relay);
    return (await listDeliveries(relay, hook.webhook.uid, { limit: 500 })).items;
  };

  it('stops a headers-only 413 flood from one address at its budget: 429s after, a genuine sender unaffected', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < FAILED_AUTH_BUDGET + 5; i++) {
      const answer = await headersOnly('203.0.113.7');
      statuses.push(answer.status);
      if (answer.status === 429) expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([
      ...Array<number>(FAILED_AUTH_BUDGET).fill(413),
      ...Array<number>(5).fill(429),
    ]);
    // The same budget counts the address's 401s.
    expect((await forged('203.0.113.7')).status).toBe(429);
    expect((await genuine('203.0.113.7')).status).toBe(202);

    const logged = await entries();
    expect(logged.filter((d) => d.label === 'Rejected (too large)')).toHaveLength(
      FAILED_AUTH_BUDGET,
    );
    expect(logged.filter((d) => d.label === 'Accepted')).toHaveLength(1);
  });

  it('counts 300 addresses of one IPv6 /64 as one client', async () => {
    // Ten at a time, written every which way an address can be: the /64 is what counts.
    const address = (i: number): string => {
      const network = i % 2 === 0 ? '2001:db8:aa:01' : '2001:0db8:00aa:1';
      return `${network}${i % 3 === 0 ? `:0:0:0:${i.toString(16)}` : `::${i.toString(16)}`}`;
    };
    const statuses: number[] = [];
    for (let first = 1; first <= 300; first += 10) {
      const wave = Array.from({ length: 10 }, (_, k) => headersOnly(address(first + k)));
      statuses.push(...(await Promise.all(wave)).map((answer) => answer.status));
    }
    expect(statuses.filter((s) => s === 413)).toHaveLength(FAILED_AUTH_BUDGET);
    expect(statuses.filter((s) => s === 429)).toHaveLength(300 - FAILED_AUTH_BUDGET);
    // Another /64 has a budget of its own; the genuine sender, in the same /64, is accepted.
    expect((await headersOnly('2001:db8:aa:2::1')).status).toBe(413);
    expect((await genuine('2001:db8:aa:1::ffff')).status).toBe(202);

    const logged = await entries();
    expect(logged.filter((d) => d.label === 'Rejected (too large)')).toHaveLength(
      FAILED_AUTH_BUDGET + 1,
    );
    expect(logged.filter((d) => d.label === 'Accepted')).toHaveLength(1);
  });

  it("stops many addresses together at the webhook's own budget", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < UNAUTHENTICATED_PER_WEBHOOK_BUDGET + 20; i++) {
      const from = `198.51.${Math.floor(i / 250)}.${(i % 250) + 1}`;
      statuses.push(i % 2 === 0 ? (await headersOnly(from)).status : (await forged(from)).status);
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    expect(statuses.slice(-20)).toEqual(Array<number>(20).fill(429));
    expect((await genuine('198.51.9.9')).status).toBe(202);

    const logged = await entries();
    expect(logged.filter((d) => d.label.startsWith('Rejected'))).toHaveLength(
      UNAUTHENTICATED_PER_WEBHOOK_BUDGET,
    );
  });

  it('keeps at most 4 KB of the headers of an entry written before authentication, and says so', async () => {
    const answer = await headersOnly('203.0.113.9', [
      ['X-Padding', 'p'.repeat(6_000)],
      ['X-After', 'not kept'],
    ]);
    expect(answer.status).toBe(413);
    const [entry] = (await entries()).filter((d) => d.label === 'Rejected (too large)');
    const stored = await getDelivery(relay, entry!.id);
    const bytes = stored.headers!.reduce((n, [name, value]) => n + name.length + value.length, 0);
    expect(bytes).toBeLessThanOrEqual(UNAUTHENTICATED_HEADER_BYTES + 1);
    expect(stored.headers!.map(([name]) => name)).not.toContain('X-After');
    expect(stored.reason).toMatch(/bytes of headers not kept$/);
  });

  it('keeps a Rejected (auth) streak through 413s, so a headers-only flood cannot hide it', async () => {
    const alarms = async () => (await relay.call('alarms.list', {})).items;
    expect((await genuine('203.0.113.20')).status).toBe(202);
    for (let i = 1; i < DEFAULT_AUTH_FAILURE_STREAK; i++) {
      expect((await forged(`203.0.113.${20 + i}`)).status).toBe(401);
      expect((await headersOnly(`203.0.114.${20 + i}`)).status).toBe(413);
    }
    await logSettled(relay);
    expect(await alarms()).toEqual([]);
    expect((await forged('203.0.113.99')).status).toBe(401);
    const raised = await waitFor(async () => {
      const now = await alarms();
      return now.length > 0 ? now : null;
    }, 'the auth alarm');
    expect(raised).toMatchObject([{ webhookUid: hook.webhook.uid, kind: 'auth' }]);
  });
});
