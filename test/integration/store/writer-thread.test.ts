import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_PROMPT_LENGTH } from '../../../src/shared/contract/automations.js';
import { MAX_BODY_BYTES } from '../../../src/shared/limits.js';
import type { Logger } from '../../../src/main/log.js';
import { openDatabase, type Db } from '../../../src/main/store/sqlite/db.js';
import { createDeliveriesRepository } from '../../../src/main/store/sqlite/deliveries-repo.js';
import type {
  AcceptItem,
  BatchItem,
  RejectionItem,
} from '../../../src/main/store/delivery-batch.js';
import { SqliteWriterThread } from '../../../src/main/store/sqlite/sqlite-writer-thread.js';
import { tempDir } from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';

const accept = (id: string, identity: string, body: Buffer): BatchItem => ({
  kind: 'accept',
  item: {
    id,
    webhookUid: 'wh_writerthreadtest000000000',
    receivedAt: Date.now(),
    body,
    identity,
    identitySource: 'x-service-delivery-id',
    clientAddress: '127.0.0.1',
    runs: [],
    request: {
      method: 'POST',
      path: '/webhooks/w/wh_writerthreadtest000000000',
      headers: ['X-GitHub-Event', 'push', 'Authorization', '[redacted]'],
    },
    eventType: 'push',
  } satisfies AcceptItem,
});

const rejected = (id: string): RejectionItem => ({
  id,
  webhookUid: 'wh_writerthreadtest000000000',
  receivedAt: Date.now(),
  size: 2,
  label: 'Rejected (too large)',
  reason: 'body exceeds 262144 bytes',
  clientAddress: '127.0.0.1',
  identity: null,
  identitySource: null,
  request: { method: 'POST', path: '/webhooks/w/wh_writerthreadtest000000000', headers: [] },
  eventType: null,
});

/**
 * The writer thread is the relay's DeliveryBatchStore: batches cross to a worker thread by
 * structured clone and commit there on its own connection to the same file.
 */
describe('the SQLite writer thread', () => {
  let dir: string;
  let file: string;
  let main: Db;
  let thread: SqliteWriterThread | null;
  const logged: string[] = [];
  const log: Logger = { info: () => {}, warn: () => {}, error: (line) => logged.push(line) };

  beforeEach(async () => {
    dir = tempDir();
    file = join(dir, 'hookport.sqlite');
    main = openDatabase(file);
    thread = await SqliteWriterThread.start({ file, options: { dedupeWindowMs: 60_000 }, log });
    logged.length = 0;
  });
  afterEach(async () => {
    await thread?.close();
    main.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const payload = (id: string): Buffer | undefined =>
    main
      .prepare<[string], { body: Buffer }>('SELECT body FROM payloads WHERE delivery_id = ?')
      .get(id)?.body;
  const labels = (): string[] =>
    main
      .prepare<[], { label: string }>('SELECT label FROM deliveries ORDER BY id')
      .all()
      .map((r) => r.label);

  it('commits a batch and answers each delivery, payload bytes exactly as sent', async () => {
    const bytes = Buffer.from([0x7b, 0x7d, 0xff, 0x00, 0xfe]);
    const result = await thread!.commit([
      accept('dlv_a', 'same', bytes),
      accept('dlv_b', 'same', Buffer.from('{}')),
      {
        kind: 'reject',
        item: {
          id: 'dlv_c',
          webhookUid: 'wh_writerthreadtest000000000',
          receivedAt: Date.now(),
          size: 3,
          label: 'Rejected (auth)',
          reason: 'token does not match',
          clientAddress: '127.0.0.1',
          identity: null,
          identitySource: null,
          request: {
            method: 'POST',
            path: '/webhooks/w/wh_writerthreadtest000000000',
            headers: [],
          },
          eventType: null,
        },
      },
    ]);
    expect(result.outcomes).toEqual([
      { label: 'Accepted', deliveryId: 'dlv_a', runIds: [] },
      { label: 'Duplicate', deliveryId: 'dlv_b', duplicateOf: 'dlv_a' },
    ]);
    expect(result.committed.map((d) => d.label)).toEqual([
      'Accepted',
      'Duplicate',
      'Rejected (auth)',
    ]);
    expect(payload('dlv_a')).toEqual(bytes);
    expect(labels()).toEqual(['Accepted', 'Duplicate', 'Rejected (auth)']);
    // Fields the accept path adds reach the SQL as they are.
    expect(createDeliveriesRepository(main).requestContext('dlv_a')).toEqual({
      method: 'POST',
      path: '/webhooks/w/wh_writerthreadtest000000000',
      headers: [
        ['X-GitHub-Event', 'push'],
        ['Authorization', '[redacted]'],
      ],
    });
    expect(result.committed[0]).toMatchObject({ eventType: 'push' });
  });

  it('writes a failed batch again item by item, so that only the item SQLite refuses fails', async () => {
    const result = await thread!.commit([
      accept('dlv_same', 'one', Buffer.from('1')),
      accept('dlv_same', 'two', Buffer.from('2')),
      {
        kind: 'reject',
        // Issue 24: a declared 1e19 bytes, which a STRICT INTEGER column refuses.
        item: { ...rejected('dlv_absurd'), size: 1e19 },
      },
      accept('dlv_next', 'three', Buffer.from('3')),
    ]);
    expect(result.failed?.map((f) => [f.index, f.id])).toEqual([
      [1, 'dlv_same'],
      [2, 'dlv_absurd'],
    ]);
    expect(result.failed?.[0]?.message).toMatch(/UNIQUE/);
    expect(result.failed?.[1]?.message).toMatch(/cannot store REAL/);
    expect(result.outcomes.map((o) => o.deliveryId)).toEqual(['dlv_same', 'dlv_next']);
    expect(labels()).toEqual(['Accepted', 'Accepted']);
  });

  it('writes nothing of a batch of one that fails, and says why with SQLite’s code', async () => {
    const failing = thread!.commit([
      { kind: 'reject', item: { ...rejected('dlv_x'), size: 1e19 } },
    ]);
    await expect(failing).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_DATATYPE' });
    expect(labels()).toEqual([]);
    // The thread lives on for the next batch.
    await thread!.commit([accept('dlv_next', 'three', Buffer.from('3'))]);
    expect(labels()).toEqual(['Accepted']);
  });

  it('fails the batch a dying thread held, logs why, and starts a new thread for the next', async () => {
    await thread!.close();
    // A thread with a small heap, and a batch too big for it: the thread runs out of memory.
    thread = await SqliteWriterThread.start({
      file,
      options: { dedupeWindowMs: 60_000 },
      log,
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
    });
    // Run inputs are strings on the thread's heap: twenty of a megabyte each will not fit.
    const huge = Array.from({ length: 20 }, (_, i): BatchItem => {
      const item = accept(`dlv_huge_${i}`, `huge-${i}`, Buffer.from('{}'));
      if (item.kind === 'accept') {
        item.item.runs = [
          { id: `run_${i}`, automationId: 'aut_x', input: `${i}`.repeat(1_000_000) },
        ];
      }
      return item;
    });
    await expect(thread.commit(huge)).rejects.toThrow(
      /^the SQLite writer thread stopped \(exit code 1, Error: Worker terminated due to reaching memory limit/,
    );
    expect(logged).toEqual([
      expect.stringMatching(
        /^\[store\] the SQLite writer thread stopped unexpectedly \(exit code 1, .*\); 1 batch\(es\) it held were not acknowledged \(their senders got 503\)/,
      ),
    ]);
    expect(labels()).toEqual([]);

    await thread.commit([accept('dlv_after', 'after', Buffer.from('"after"'))]);
    expect(payload('dlv_after')?.toString()).toBe('"after"');
  });

  it('commits a burst of the largest deliveries with the thread’s own heap limits', async () => {
    // 64 bodies at the ingress limit (16 MB, what the scratch keeps), each starting four runs
    // whose prompts are as long as an automation's may be: the run inputs are strings on the
    // thread's heap. A heap limit set too small would kill the thread here and fail the batch.
    const body = (i: number): Buffer => Buffer.alloc(MAX_BODY_BYTES, `{"n":${i}}`);
    const prompt = 'p'.repeat(MAX_PROMPT_LENGTH);
    const batch = Array.from({ length: 64 }, (_, i): BatchItem => {
      const item = accept(`dlv_big_${i}`, `big-${i}`, body(i));
      if (item.kind === 'accept') {
        item.item.runs = [0, 1, 2, 3].map((r) => ({
          id: `run_${i}_${r}`,
          automationId: `aut_${r}`,
          input: `${prompt}${i}`,
        }));
      }
      return item;
    });
    const result = await thread!.commit(batch);
    expect(result.outcomes.every((o) => o.label === 'Accepted')).toBe(true);
    expect(labels()).toHaveLength(64);
    expect(payload('dlv_big_0')?.equals(body(0))).toBe(true);
    expect(payload('dlv_big_63')?.equals(body(63))).toBe(true);
    const runs = main
      .prepare<[], { n: number; chars: number }>(
        'SELECT count(*) AS n, sum(length(input)) AS chars FROM runs',
      )
      .get()!;
    expect(runs).toEqual({ n: 256, chars: 256 * MAX_PROMPT_LENGTH + 4 * (10 + 54 * 2) });
    expect(logged).toEqual([]);
  });

  it('closes an idle thread and lets go of its batch memory, and starts another for the next batch', async () => {
    await thread!.close();
    thread = await SqliteWriterThread.start({
      file,
      options: { dedupeWindowMs: 60_000 },
      log,
      idleCloseMs: 50,
    });
    await thread.commit([accept('dlv_before', 'before', Buffer.alloc(MAX_BODY_BYTES, '1'))]);
    expect(thread.keptScratchBytes).toBeGreaterThanOrEqual(MAX_BODY_BYTES);
    await waitFor(() => !thread!.awake, 'the idle thread to close');
    expect(thread.keptScratchBytes).toBe(0);
    await thread.commit([accept('dlv_woken', 'woken', Buffer.from('2'))]);
    expect(labels()).toEqual(['Accepted', 'Accepted']);
    expect(logged).toEqual([]);
  });

  it('refuses batches once closed', async () => {
    await thread!.close();
    await expect(thread!.commit([accept('dlv_x', 'x', Buffer.from('1'))])).rejects.toThrow(
      'the SQLite writer thread is closed',
    );
    thread = null;
  });
});
