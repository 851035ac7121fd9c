import { newDeliveryId, newRunId } from '../../src/main/ids.js';
import type { AcceptItem, BatchItem, RejectionItem } from '../../src/main/store/delivery-batch.js';
import type { ContractDatabase } from './store-contract.js';

/** A factory with webhooks and automations, as rows (their own repositories are not under test). */
export async function seedFactory(
  db: ContractDatabase,
  {
    factoryId = 'default',
    webhooks = [],
    automations = [],
    executor = '{"kind":"record"}',
  }: {
    factoryId?: string;
    webhooks?: Array<{ uid: string; name: string }>;
    automations?: Array<{ id: string; name: string }>;
    executor?: string;
  },
): Promise<void> {
  const now = Date.now();
  await db.sql('INSERT INTO factories (id, name, executor, created_at) VALUES ($1, $2, $3, $4)', [
    factoryId,
    factoryId,
    executor,
    now,
  ]);
  for (const { uid, name } of webhooks) {
    await db.sql(
      `INSERT INTO webhooks (uid, factory_id, name, auth_mode, secret_name, created_at)
       VALUES ($1, $2, $3, 'token', $4, $5)`,
      [uid, factoryId, name, `${name}-secret`, now],
    );
  }
  for (const { id, name } of automations) {
    await db.sql(
      `INSERT INTO automations (id, factory_id, name, prompt, triggers, created_at, updated_at)
       VALUES ($1, $2, $3, 'Look at it', '[]', $4, $4)`,
      [id, factoryId, name, now],
    );
  }
}

/** An accepted delivery as the ingress hands it to the batch store, with `runs` of automations. */
export function accepted(
  webhookUid: string,
  receivedAt: number,
  body: string,
  extra: Partial<Omit<AcceptItem, 'runs'>> & { automations?: string[] } = {},
): BatchItem {
  const { automations = [], ...rest } = extra;
  const id = newDeliveryId(receivedAt);
  return {
    kind: 'accept',
    item: {
      id,
      webhookUid,
      receivedAt,
      body: Buffer.from(body, 'utf8'),
      identity: `evt-${id}`,
      identitySource: 'x-service-delivery-id',
      clientAddress: '127.0.0.1',
      runs: automations.map((automationId) => ({
        id: newRunId(receivedAt),
        automationId,
        input: `PROMPT for ${id}`,
      })),
      request: { method: 'POST', path: '/webhooks/w/{token}', headers: ['X-Test', 'yes'] },
      eventType: null,
      ...rest,
    },
  };
}

/** A refused request as the log keeps it. */
export function rejected(
  webhookUid: string,
  receivedAt: number,
  label: RejectionItem['label'] = 'Rejected (auth)',
): BatchItem {
  return {
    kind: 'reject',
    item: {
      id: newDeliveryId(receivedAt),
      webhookUid,
      receivedAt,
      size: 12,
      label,
      reason: 'bad token',
      clientAddress: '127.0.0.1',
      identity: null,
      identitySource: null,
      request: { method: 'POST', path: '/webhooks/w/{token}', headers: [] },
      eventType: null,
    },
  };
}

let lastEpoch = 0;
/**
 * A start time for one test's deliveries, later than any minted before in this process: IDs are
 * monotonic ULIDs, which take the last time used when asked for an earlier one, so a test going
 * back in time would get IDs that do not say when their delivery arrived.
 */
export function freshEpoch(): number {
  lastEpoch = Math.max(Date.now(), lastEpoch) + 24 * 60 * 60_000;
  return lastEpoch - (lastEpoch % 60_000);
}
