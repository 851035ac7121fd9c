import { describe, expect, it } from 'vitest';
import type { AlarmNotification } from '../../../src/shared/contract/alarms.js';
import { forEachStore, seedRows } from '../../support/repository-contract.js';

const UID = 'wh_01HZX3K7Q9M2V8T4R6N0P5W1YB';
const OTHER = 'wh_01HZX3K7Q9M2V8T4R6N0P5W1YC';

describe('the alarms repository', () => {
  forEachStore((store) => {
    it('saves a webhook’s alarm settings over the old ones; null when never saved', async () => {
      const { alarms } = (await store.open()).repositories;
      expect(await alarms.settings(UID)).toBeNull();

      await alarms.saveSettings({
        webhookUid: UID,
        expectedEveryMinutes: 60,
        cadenceSetAt: 1_700_000_000_000,
        authFailureStreak: 5,
      });
      await alarms.saveSettings({
        webhookUid: UID,
        expectedEveryMinutes: null,
        cadenceSetAt: 1_700_000_060_000,
        authFailureStreak: null,
      });

      expect(await alarms.settings(UID)).toStrictEqual({
        webhookUid: UID,
        expectedEveryMinutes: null,
        cadenceSetAt: 1_700_000_060_000,
        authFailureStreak: null,
      });
      expect(await alarms.settings(OTHER)).toBeNull();
    });

    it('raises an alarm once and clears it once; raised ones by time, webhook, then kind', async () => {
      const { alarms } = (await store.open()).repositories;

      expect(await alarms.raise({ webhookUid: UID, kind: 'quiet', since: 20 })).toBe(true);
      expect(await alarms.raise({ webhookUid: UID, kind: 'quiet', since: 30 })).toBe(false);
      expect(await alarms.raise({ webhookUid: UID, kind: 'auth', since: 20 })).toBe(true);
      expect(await alarms.raise({ webhookUid: OTHER, kind: 'auth', since: 10 })).toBe(true);

      expect(await alarms.raised()).toStrictEqual([
        { webhookUid: OTHER, kind: 'auth', since: 10 },
        { webhookUid: UID, kind: 'auth', since: 20 },
        { webhookUid: UID, kind: 'quiet', since: 20 },
      ]);
      expect(await alarms.clear(UID, 'quiet')).toBe(true);
      expect(await alarms.clear(UID, 'quiet')).toBe(false);
      expect((await alarms.raised()).map((a) => a.kind)).toEqual(['auth', 'auth']);
    });

    it('keeps each factory’s notification; null clears it; an unknown factory is false', async () => {
      const { alarms, factories } = (await store.open()).repositories;
      await factories.ensure('default', 'Default factory', 1);
      const http: AlarmNotification = {
        kind: 'http',
        url: 'https://alerts.example.com/hookport',
        timeoutSeconds: 10,
      };

      expect(await alarms.notification('default')).toBeNull();
      expect(await alarms.saveNotification('default', http)).toBe(true);
      expect(await alarms.notification('default')).toStrictEqual(http);
      expect(await alarms.saveNotification('default', null)).toBe(true);
      expect(await alarms.notification('default')).toBeNull();
      expect(await alarms.saveNotification('nobody', http)).toBe(false);
      expect(await alarms.notification('nobody')).toBeNull();
    });

    it('refuses a stored notification that no longer parses, naming the fix', async () => {
      const opened = await store.open();
      await seedRows(opened.database, 'factories', [
        { id: 'odd', name: 'Odd', created_at: 1, alarm_notification: '{"kind":"pager"}' },
      ]);

      await expect(opened.repositories.alarms.notification('odd')).rejects.toThrow(
        'The alarm notification of factory "odd" is not valid; set it again.',
      );
    });

    it('reads the newest accepted time and newest labels from the log, newest first', async () => {
      const opened = await store.open();
      const entry = (id: string, label: string, receivedAt: number, webhookUid = UID) => ({
        id,
        webhook_uid: webhookUid,
        label,
        size: 2,
        received_at: receivedAt,
      });
      await seedRows(opened.database, 'deliveries', [
        entry('01J0000000000000000000000A', 'Accepted', 100),
        entry('01J0000000000000000000000B', 'Accepted', 200),
        entry('01J0000000000000000000000C', 'Unauthorized', 300),
        entry('01J0000000000000000000000D', 'Duplicate', 400),
        entry('01J0000000000000000000000E', 'Accepted', 999, OTHER),
      ]);
      const { alarms } = opened.repositories;

      expect(await alarms.lastAcceptedAt(UID)).toBe(200);
      expect(await alarms.lastAcceptedAt('wh_none')).toBeNull();
      expect(await alarms.newestLabels(UID, 3)).toEqual(['Duplicate', 'Unauthorized', 'Accepted']);
      expect(await alarms.newestLabels('wh_none', 3)).toEqual([]);
    });
  });
});
