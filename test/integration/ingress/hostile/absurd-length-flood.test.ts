import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newDeliveryId } from '../../../../src/main/ids.js';
import { MAX_BODY_BYTES } from '../../../../src/main/ingress/limits.js';
import { getDelivery, listDeliveries, logSettled } from '../../../support/deliveries.js';
import { exchangeRaw, openRaw, requestHead } from '../../../support/raw-http.js';
import { postDelivery, startTestRelay, type TestRelay } from '../../../support/relay.js';
import { storeConfig, storeKinds } from '../../../support/stores.js';
import { SENDERS } from '../../signatures/support/senders.js';

/**
 * Issue 24's attack: someone who knows a GitHub-signature webhook's URL floods it with absurd
 * Content-Length values (headers only, some dripped slowly) while GitHub sends correctly signed
 * deliveries. GitHub does not retry, so a genuine delivery answered 5xx is lost: every one must
 * be 202 and stored, and the log must list without error afterwards.
 */
const github = SENDERS.find((s) => s.scheme === 'github')!;
/** The issue saw 27 of 55 lost; 30 at GitHub's trickle, three at a time, showed as many. */
const GENUINE = 30;

/** Each value as an attacker sends it; every header set is a whole request head's lengths. */
const ABSURD_LENGTHS: ReadonlyArray<Array<[string, string]>> = [
  [['Content-Length', '10000000000000000000']], // 1e19: past int64
  [['Content-Length', String(2 ** 53 + 1)]], // not a safe integer
  [['Content-Length', '100000000000000000000000']], // 1e23: past uint64
  [['Content-Length', '-5']],
  [['Content-Length', '+5']],
  [['Content-Length', '000000000000000000000010000000000000000000']], // leading zeros, 1e19
  [
    ['Content-Length', '10000000000000000000'],
    ['Content-Length', '10000000000000000000'],
  ],
];

describe.each(storeKinds)('an absurd Content-Length flood beside GitHub (%s)', (storeKind) => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterEach(() => relay.stop());

  it('costs the genuine sender nothing: every signed delivery 202 and stored, the log readable', async () => {
    const { webhook, ingressUrl } = await relay.createWebhook({
      name: 'github',
      authMode: 'signature',
      signatureScheme: 'github',
      secret: github.secret,
    });
    const path = `/webhooks/w/${webhook.uid}`;
    const hostileStatuses: number[] = [];

    /** Headers only, all at once. */
    const blunt = async (lengths: Array<[string, string]>): Promise<void> => {
      const answers = await exchangeRaw(relay.ingressUrl, [
        requestHead('POST', path, relay.ingressUrl, [...lengths, ['X-Hub-Signature-256', 'x']]),
      ]);
      hostileStatuses.push(...answers.map((a) => a.status));
    };
    /** The same head in pieces, each written once the one before has left the socket. */
    const slow = async (lengths: Array<[string, string]>): Promise<void> => {
      const connection = await openRaw(relay.ingressUrl);
      const head = requestHead('POST', path, relay.ingressUrl, lengths);
      for (let at = 0; at < head.length; at += 16) {
        await new Promise<void>((resolve) =>
          connection.socket.write(head.slice(at, at + 16), () => resolve()),
        );
      }
      await connection.closed;
      hostileStatuses.push(...connection.responses().map((a) => a.status));
    };

    let attacking = true;
    const attacker = async (send: typeof blunt): Promise<void> => {
      while (attacking) for (const lengths of ABSURD_LENGTHS) await send(lengths);
    };
    const attackers = [blunt, blunt, blunt, blunt, slow, slow].map(attacker);

    const genuine = async (n: number) => {
      const body = github.body(`genuine ${n}`, 0);
      const sent = await postDelivery(ingressUrl, body, {
        'content-type': 'application/json',
        ...github.sign(body, github.secret, 0, randomUUID()),
      });
      return { n, ...sent };
    };
    const answers: Array<Awaited<ReturnType<typeof genuine>>> = [];
    // Three senders at a time, one delivery after another each: GitHub's steady trickle.
    await Promise.all(
      [0, 1, 2].map(async (lane) => {
        for (let n = lane; n < GENUINE; n += 3) answers.push(await genuine(n));
      }),
    );
    attacking = false;
    await Promise.all(attackers);

    expect(answers.filter((a) => a.status !== 202).map((a) => [a.n, a.status, a.body])).toEqual([]);
    for (const { body } of answers) {
      expect(await getDelivery(relay, body.delivery_id!)).toMatchObject({ label: 'Accepted' });
    }
    expect(hostileStatuses.length).toBeGreaterThan(ABSURD_LENGTHS.length);
    expect(hostileStatuses.filter((s) => s >= 500)).toEqual([]);

    await logSettled(relay);
    const { items } = await listDeliveries(relay, webhook.uid, { limit: 500 });
    expect(items.filter((d) => d.label === 'Accepted')).toHaveLength(GENUINE);
    for (const entry of items) expect(entry.size).toBeLessThanOrEqual(MAX_BODY_BYTES + 1);
  });

  it('lists entries stored with absurd sizes before sizes were bounded', async () => {
    const { webhook } = await relay.createWebhook({ name: 'older' });
    // Written straight through the real store, as the relay did before sizes were bounded:
    // 2^53 + 2 fits SQLite's INTEGER and PostgreSQL's bigint, and no contract's number.
    const receivedAt = Date.now();
    await relay.core.store.batchStore.commit([
      {
        kind: 'reject',
        item: {
          id: newDeliveryId(receivedAt),
          webhookUid: webhook.uid,
          receivedAt,
          size: 2 ** 53 + 2,
          label: 'Rejected (too large)',
          reason: 'body exceeds 262144 bytes',
          clientAddress: '203.0.113.7',
          identity: null,
          identitySource: null,
          request: { method: 'POST', path: `/webhooks/w/${webhook.uid}`, headers: [] },
          eventType: null,
        },
      },
    ]);
    const { items } = await listDeliveries(relay, webhook.uid);
    expect(items).toMatchObject([{ label: 'Rejected (too large)', size: MAX_BODY_BYTES + 1 }]);
    expect(await getDelivery(relay, items[0]!.id)).toMatchObject({ size: MAX_BODY_BYTES + 1 });
  });
});
