import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AutomationIndex } from '../../../src/main/automations/automation-index.js';
import { WebhookDirectory } from '../../../src/main/ingress/webhook-directory.js';
import { DEDUPE_WINDOW_MS } from '../../../src/main/ingress/limits.js';
import { EncryptedFileSecretStore, loadMasterKey } from '../../../src/main/secrets/file-store.js';
import { secretAccount } from '../../../src/main/secrets/secret-store.js';
import { TeamSecrets } from '../../../src/main/secrets/team-secrets.js';
import { RelaySettings } from '../../../src/main/service/relay-settings.js';
import { DEFAULT_FACTORY_ID } from '../../../src/main/store/factories.js';
import { openSqliteStore, type SqliteStore } from '../../../src/main/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/relay.js';
import { webhookRecord } from '../../support/webhook-record.js';

/**
 * Another relay's change (or a resync poll) reloads a cache whole while a write on this relay
 * updates the same cache. Each case holds the whole reload after it has read the store, lets the
 * local write run, then lets the reload finish: what the write put in must still be there.
 * The hold is the only thing added to the real store, SQLite file and encrypted file of secrets.
 */
describe('a whole reload overlapping a write on this relay', () => {
  let dir: string;
  let store: SqliteStore;
  beforeEach(async () => {
    dir = tempDir('hookport-reloads-');
    const log = { info: () => {}, warn: () => {}, error: () => {} };
    store = await openSqliteStore(join(dir, 'hookport.sqlite'), {
      log,
      dedupeWindowMs: DEDUPE_WINDOW_MS,
    });
    await store.factories.ensure(DEFAULT_FACTORY_ID, 'Default factory', 1);
  });
  afterEach(() => store.close());

  /** A latch: `wait()` returns once `open()` was called. */
  function latch(): { wait: () => Promise<void>; open: () => void; reached: Promise<void> } {
    let open!: () => void;
    let reach!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const reached = new Promise<void>((resolve) => (reach = resolve));
    return {
      wait: () => {
        reach();
        return opened;
      },
      open,
      reached,
    };
  }

  describe('of team secrets', () => {
    const HELD = secretAccount(DEFAULT_FACTORY_ID, 'already-there');
    let hold: ReturnType<typeof latch> | null;
    let secrets: TeamSecrets;
    beforeEach(async () => {
      hold = null;
      const files = new EncryptedFileSecretStore(dir, loadMasterKey(dir, undefined));
      // The reload reads this secret's value, then waits: a slow keychain, or a busy event loop.
      const slowToAnswer: EncryptedFileSecretStore = Object.create(
        files,
      ) as EncryptedFileSecretStore;
      slowToAnswer.get = async (account: string) => {
        const value = await files.get(account);
        if (account === HELD && hold) await hold.wait();
        return value;
      };
      secrets = new TeamSecrets(store.secrets, slowToAnswer);
      await secrets.create(DEFAULT_FACTORY_ID, 'already-there', 'value-of-the-first-one-0123');
    });

    /**
     * A write started while a whole reload is held after its read, then the reload let go.
     * `mayFinish`: the write may run to its end first (a SQLite insert and a file write) or wait
     * for its turn; either is given the time.
     */
    async function writeDuringReload(write: () => Promise<unknown>, mayFinish = false) {
      hold = latch();
      const reload = secrets.load();
      await hold.reached;
      const written = write();
      if (mayFinish) await Promise.race([written, new Promise((r) => setTimeout(r, 500))]);
      hold.open();
      await Promise.all([reload, written]);
    }

    it('keeps a secret created meanwhile: its webhook does not answer 401', async () => {
      await writeDuringReload(
        () => secrets.create(DEFAULT_FACTORY_ID, 'made-meanwhile', 'fresh-value-0123456789'),
        true,
      );
      expect(secrets.cachedValue(DEFAULT_FACTORY_ID, 'made-meanwhile')).toBe(
        'fresh-value-0123456789',
      );
    });

    it('keeps a value rotated meanwhile: the old one is not accepted again', async () => {
      await writeDuringReload(() =>
        secrets.rotate(DEFAULT_FACTORY_ID, 'already-there', 'rotated-value-0123456'),
      );
      expect(secrets.cachedValue(DEFAULT_FACTORY_ID, 'already-there')).toBe(
        'rotated-value-0123456',
      );
    });

    it('keeps a secret removed meanwhile removed', async () => {
      await writeDuringReload(() => secrets.remove(DEFAULT_FACTORY_ID, 'already-there'));
      expect(secrets.cachedValue(DEFAULT_FACTORY_ID, 'already-there')).toBeUndefined();
    });
  });

  describe('of the webhook directory', () => {
    const webhook = webhookRecord;

    async function heldDirectory(): Promise<{
      directory: WebhookDirectory;
      holdNext: () => ReturnType<typeof latch>;
    }> {
      let hold: ReturnType<typeof latch> | null = null;
      const repo = Object.create(store.webhooks) as typeof store.webhooks;
      repo.live = async () => {
        const rows = await store.webhooks.live();
        if (hold) await hold.wait();
        return rows;
      };
      const directory = await WebhookDirectory.load(repo);
      return { directory, holdNext: () => (hold = latch()) };
    }

    it('keeps a webhook created meanwhile: it does not answer 404', async () => {
      const { directory, holdNext } = await heldDirectory();
      const hold = holdNext();
      const reload = directory.reloadAll();
      await hold.reached;
      await store.webhooks.insert(webhook('wh_made_meanwhile', 'made-meanwhile'));
      const refreshed = directory.refresh('wh_made_meanwhile');
      hold.open();
      await Promise.all([reload, refreshed]);
      expect(directory.get('wh_made_meanwhile')?.name).toBe('made-meanwhile');
    });

    it('keeps a webhook disabled meanwhile disabled: it does not accept again', async () => {
      await store.webhooks.insert(webhook('wh_to_disable', 'to-disable'));
      const { directory, holdNext } = await heldDirectory();
      expect(directory.get('wh_to_disable')).toBeDefined();
      const hold = holdNext();
      const reload = directory.reloadAll();
      await hold.reached;
      await store.webhooks.softDelete('wh_to_disable', 2);
      const refreshed = directory.refresh('wh_to_disable');
      hold.open();
      await Promise.all([reload, refreshed]);
      expect(directory.get('wh_to_disable')).toBeUndefined();
    });
  });

  describe('of the automation index', () => {
    it('answers a reload only once the index holds what that reload read', async () => {
      await store.webhooks.insert(webhookRecord('wh_watched', 'watched'));
      const hold = latch();
      let reads = 0;
      const index = await AutomationIndex.load(store.automations, async () => {
        const read = ++reads;
        const uids = (await store.webhooks.live()).map((w) => w.uid);
        // Read 1 is the load; read 3, the second reload below, is the slow one.
        if (read === 3) await hold.wait();
        return uids;
      });
      expect(index.selects('wh_watched')).toBe(false);
      await store.automations.insert({
        id: 'aut_new',
        factoryId: DEFAULT_FACTORY_ID,
        name: 'new',
        prompt: 'Run.',
        enabled: true,
        triggers: [
          { provider: 'webhook', event: 'received', filter: { webhook_ids: ['wh_watched'] } },
        ],
        sourceFile: null,
        createdAt: 2,
        updatedAt: 2,
      });
      // The write's own reload, then another relay's that is slow to read.
      const own = index.reload();
      const other = index.reload();
      await own;
      expect(index.selects('wh_watched')).toBe(true);
      hold.open();
      await other;
      expect(index.selects('wh_watched')).toBe(true);
    });
  });

  describe('of the relay settings', () => {
    it('keeps retention raised meanwhile: nothing is pruned by the days it was raised from', async () => {
      let hold: ReturnType<typeof latch> | null = null;
      const repo = Object.create(store.settings) as typeof store.settings;
      repo.get = async (key) => {
        const value = await store.settings.get(key);
        if (key === 'retentionDays' && hold) await hold.wait();
        return value;
      };
      const settings = await RelaySettings.load(repo);
      const before = settings.retentionDays;
      hold = latch();
      const reload = settings.reload();
      await hold.reached;
      const raised = settings.setRetentionDays(before + 23);
      await Promise.race([raised, new Promise((resolve) => setTimeout(resolve, 500))]);
      hold.open();
      await Promise.all([reload, raised]);
      expect(settings.retentionDays).toBe(before + 23);
    });
  });
});
