import { describe, expect, it } from 'vitest';
import { createPostgresAlarmsRepository } from '../../../src/main/store/postgres/alarms-repo.js';
import { createPostgresFactoriesRepository } from '../../../src/main/store/postgres/factories-repo.js';
import { withTransaction } from '../../../src/main/store/postgres/client.js';
import { createPostgresTokensRepository } from '../../../src/main/store/postgres/tokens-repo.js';
import { createPostgresWebhooksRepository } from '../../../src/main/store/postgres/webhooks-repo.js';
import { usePostgres } from '../../support/postgres.js';

const postgres = usePostgres();
const ROUNDS = 20;

const webhook = (uid: string, name: string) => ({
  uid,
  factoryId: 'default',
  name,
  authMode: 'token' as const,
  signatureScheme: null,
  signatureOptions: null,
  secretName: name,
  deliveryIdHeader: null,
  eventTypePath: null,
  enabled: true,
  createdAt: 1,
});

describe('configuration repositories on PostgreSQL, two replicas at once', () => {
  it('raises an alarm for one replica only when both raise it together', async () => {
    const { pool, openPool } = await postgres.database();
    const one = createPostgresAlarmsRepository(pool);
    const other = createPostgresAlarmsRepository(openPool());

    for (let round = 0; round < ROUNDS; round += 1) {
      const alarm = { webhookUid: `wh_${round}`, kind: 'quiet' as const, since: round };
      const answers = await Promise.all([one.raise(alarm), other.raise(alarm)]);
      expect(answers.filter(Boolean), `round ${round}`).toHaveLength(1);
    }
    expect(await one.raised()).toHaveLength(ROUNDS);
  });

  it('revokes a token for one replica only, and its sessions end either way', async () => {
    const { pool, openPool } = await postgres.database();
    const one = createPostgresTokensRepository(pool);
    const other = createPostgresTokensRepository(openPool());

    for (let round = 0; round < ROUNDS; round += 1) {
      const id = `tok_${round}`;
      await one.insert({ id, name: id, role: 'manage', hash: `h${round}`, createdAt: round });
      await one.insertSession({
        hash: `s${round}`,
        role: 'manage',
        tokenId: id,
        createdAt: 0,
        expiresAt: 10,
      });
      const answers = await Promise.all([one.revoke(id, 5), other.revoke(id, 5)]);
      expect(answers.filter(Boolean), `round ${round}`).toHaveLength(1);
      expect(await other.sessionRole(`s${round}`, 0)).toBeNull();
    }
    expect(await other.list()).toEqual([]);
  });

  it('keeps one live webhook per name when two replicas create it together', async () => {
    const { pool, openPool } = await postgres.database();
    await createPostgresFactoriesRepository(pool).ensure('default', 'Default factory', 1);
    const one = createPostgresWebhooksRepository(pool);
    const other = createPostgresWebhooksRepository(openPool());

    for (let round = 0; round < ROUNDS; round += 1) {
      const outcomes = await Promise.allSettled([
        one.insert(webhook(`wh_a${round}`, `name-${round}`)),
        other.insert(webhook(`wh_b${round}`, `name-${round}`)),
      ]);
      expect(
        outcomes.filter((o) => o.status === 'fulfilled'),
        `round ${round}`,
      ).toHaveLength(1);
    }
    expect(await other.countLive('default')).toBe(ROUNDS);
  });

  it('runs on one transaction’s client: its writes roll back together', async () => {
    const { pool } = await postgres.database();
    const factories = createPostgresFactoriesRepository(pool);

    await expect(
      withTransaction(pool, async (client) => {
        await createPostgresFactoriesRepository(client).ensure('ops', 'Ops', 1);
        await createPostgresWebhooksRepository(client).insert({
          ...webhook('wh_ops', 'ops'),
          factoryId: 'ops',
        });
        throw new Error('the definition sync failed half way');
      }),
    ).rejects.toThrow('half way');

    expect(await factories.get('ops')).toBeNull();
    expect(await createPostgresWebhooksRepository(pool).get('wh_ops')).toBeNull();
  });
});
