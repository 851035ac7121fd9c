import { describe, expect, it } from 'vitest';
import type { NewWebhook } from '../../../src/main/store/webhooks.js';
import { forEachStore, seedRows, type ContractStore } from '../../support/repository-contract.js';

const UID = 'wh_01';
const GONE = 'wh_02';

const webhook = (uid: string): NewWebhook => ({
  uid,
  factoryId: 'default',
  name: uid,
  authMode: 'signature',
  signatureScheme: 'github',
  signatureOptions: null,
  secretName: 'github',
  deliveryIdHeader: null,
  eventTypePath: null,
  enabled: true,
  createdAt: 1,
});

const link = (webhookUid: string) => ({
  webhookUid,
  kind: 'github' as const,
  target: 'acme/api#123',
  tokenSecretName: 'github-token',
  apiBaseUrl: 'https://api.github.com',
  keepPointed: true,
  recover: false,
  createdAt: 10,
});

const ask = (providerDeliveryId: string, askedAt = 100) => ({
  webhookUid: UID,
  providerDeliveryId,
  identity: `guid-${providerDeliveryId}`,
  event: 'push',
  failedAt: 50,
  askedAt,
});

async function opened(store: ContractStore) {
  const { repositories, database } = await store.open();
  await repositories.factories.ensure('default', 'Default factory', 1);
  await repositories.webhooks.insert(webhook(UID));
  await repositories.webhooks.insert(webhook(GONE));
  return { links: repositories.links, webhooks: repositories.webhooks, database };
}

describe('the provider links repository', () => {
  forEachStore((store) => {
    it("keeps a live webhook's link with its check and recovery; a deleted webhook's is not live", async () => {
      const { links, webhooks } = await opened(store);
      expect(await links.get(UID)).toBeNull();
      await links.put(link(UID));
      await links.put(link(GONE));
      await webhooks.softDelete(GONE, 5);
      const check = {
        at: 'now',
        ok: true,
        hookUrl: 'https://x',
        pointsHere: true,
        active: true,
        problems: [],
      };
      await links.saveCheck(UID, check);
      const recovery = {
        at: 'now',
        since: 'then',
        asked: 2,
        redelivered: 2,
        alreadyHere: 1,
        failed: 0,
        errors: [],
      };
      await links.saveRecovery(UID, recovery, 1_700_000_000_000);
      // Saving the link again keeps what was checked and recovered.
      await links.put({ ...link(UID), recover: true });
      expect(await links.get(UID)).toStrictEqual({
        ...link(UID),
        recover: true,
        check,
        recovery,
        recoveredThrough: 1_700_000_000_000,
      });
      expect((await links.live()).map((l) => l.webhookUid)).toEqual([UID]);
      expect(await links.remove(UID)).toBe(true);
      expect(await links.remove(UID)).toBe(false);
    });

    it('claims an ask once; one the provider refused may be claimed again', async () => {
      const { links } = await opened(store);
      expect(await links.claimAsk(ask('1'))).toBe(true);
      expect(await links.claimAsk(ask('1', 200))).toBe(false);
      expect(await links.askOutcome(UID, '1')).toBe('asking');
      await links.settleAsk(UID, '1', 'asked');
      expect(await links.claimAsk(ask('1', 300))).toBe(false);

      expect(await links.claimAsk(ask('2'))).toBe(true);
      await links.settleAsk(UID, '2', 'failed');
      expect(await links.claimAsk(ask('2', 300))).toBe(true);
      expect(await links.askOutcome(UID, '2')).toBe('asking');
      expect(await links.askOutcome(UID, '3')).toBeNull();
    });

    it('knows which identities are Accepted here, and which asks have arrived since', async () => {
      const { links, database } = await opened(store);
      await links.claimAsk(ask('1', 100));
      await links.claimAsk(ask('2', 100));
      await seedRows(database, 'dedupe_keys', [
        { webhook_uid: UID, identity: 'guid-1', delivery_id: 'dlv_a', accepted_at: 150 },
        { webhook_uid: UID, identity: 'guid-early', delivery_id: 'dlv_b', accepted_at: 10 },
      ]);
      expect(await links.acceptedHere(UID, 'guid-1')).toBe(true);
      expect(await links.acceptedHere(UID, 'guid-2')).toBe(false);
      expect(await links.arrivedSince(100)).toBe(1);
      expect(await links.arrivedSince(100, UID)).toBe(1);
      expect(await links.arrivedSince(101, UID)).toBe(0);
      expect(await links.pruneAsks(101)).toBe(2);
    });
  });
});
