import { describe, expect, it } from 'vitest';
import { getSignatureScheme } from '../../../src/main/ingress/schemes/index.js';
import { listDeliveries, type Delivery } from '../../support/deliveries.js';
import { bearer, postDelivery } from '../../support/relay.js';
import { clientOf, createWebhook, ingressOn, useTwoRelays } from './two-relays.js';

const IDENTITIES = 50;

/**
 * PRODUCT §16: a given identity is `Accepted` once however many replicas receive it at the same
 * moment. Fifty identities, each sent to both relays at the same instant: half by the webhook's
 * own delivery-ID header (X-Request-Id), half signed with a provider delivery id
 * (Standard Webhooks' webhook-id). Two webhooks keep each under the 60/min limit.
 */
describe('the same delivery sent to two relays at once', () => {
  const replicas = useTwoRelays();

  it('is Accepted exactly once per identity, the other copy a Duplicate of it, every POST a 202', async () => {
    const { a, b } = await replicas.start();
    const byHeader = await createWebhook(a, {
      name: 'by-header',
      deliveryIdHeader: 'X-Request-Id',
    });
    const signed = await createWebhook(a, {
      name: 'signed',
      authMode: 'signature',
      signatureScheme: 'standard-webhooks',
    });
    const scheme = getSignatureScheme('standard-webhooks');

    const copies = (
      i: number,
    ): Array<{ url: string; body: string; headers: Record<string, string> }> => {
      if (i % 2 === 0) {
        // Different bodies on purpose: only the header makes them one delivery.
        const headers = { ...bearer(byHeader.secret), 'x-request-id': `req-${i}` };
        return [a, b].map((relay, r) => ({
          url: ingressOn(relay, byHeader.ingressUrl),
          body: JSON.stringify({ i, via: r }),
          headers,
        }));
      }
      return [a, b].map((relay, r) => {
        const body = JSON.stringify({ i, via: r });
        const headers = scheme.sign({
          body: Buffer.from(body),
          secret: signed.secret!,
          timestamp: Math.floor(Date.now() / 1000),
          id: `msg_${i}`,
          options: null,
        });
        return { url: ingressOn(relay, signed.ingressUrl), body, headers };
      });
    };

    // Which relay hears first alternates: neither is always ahead.
    const answers = await Promise.all(
      Array.from({ length: IDENTITIES }, async (_, i) => {
        const [toA, toB] = copies(i).map(
          ({ url, body, headers }) =>
            () =>
              postDelivery(url, body, headers),
        );
        if (i % 4 < 2) return Promise.all([toA!(), toB!()]);
        const [fromB, fromA] = await Promise.all([toB!(), toA!()]);
        return [fromA, fromB];
      }),
    );
    expect(answers.flat().map((answer) => answer.status)).toEqual(
      Array<number>(IDENTITIES * 2).fill(202),
    );

    // Either relay's log is the one shared log: read it through B, which created nothing.
    const log: Delivery[] = [];
    for (const uid of [byHeader.webhook.uid, signed.webhook.uid])
      log.push(...(await listDeliveries(clientOf(b), uid, { limit: 500 })).items);
    expect(log).toHaveLength(IDENTITIES * 2);

    const byIdentity = new Map<string, Delivery[]>();
    for (const entry of log) {
      const key = entry.identity!;
      byIdentity.set(key, [...(byIdentity.get(key) ?? []), entry]);
    }
    expect(byIdentity.size).toBe(IDENTITIES);
    for (const [identity, entries] of byIdentity) {
      const accepted = entries.filter((entry) => entry.label === 'Accepted');
      const duplicates = entries.filter((entry) => entry.label === 'Duplicate');
      expect({ identity, accepted: accepted.length, duplicates: duplicates.length }).toEqual({
        identity,
        accepted: 1,
        duplicates: 1,
      });
      expect(duplicates[0]!.duplicateOf).toBe(accepted[0]!.id);
    }
  });
});
