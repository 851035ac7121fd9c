import { describe, expect, it } from 'vitest';
import type {
  AcceptItem,
  BatchItem,
  BatchResult,
  DeliveryBatchStore,
} from '../../../src/main/store/delivery-batch.js';
import { DeliveryWriter } from '../../../src/main/store/delivery-writer.js';

const item = (id: string): AcceptItem => ({
  id,
  webhookUid: 'wh_test',
  receivedAt: 0,
  body: Buffer.from('{}'),
  identity: id,
  identitySource: 'body-sha256',
  clientAddress: null,
  runs: [],
  request: null,
  eventType: null,
});

/** A store whose commits the test finishes by hand, to see what shares a transaction. */
class ManualStore implements DeliveryBatchStore {
  batches: Array<{ batch: BatchItem[]; finish: (r: BatchResult | Error) => void }> = [];
  commit(batch: BatchItem[]): Promise<BatchResult> {
    return new Promise((resolve, reject) => {
      this.batches.push({ batch, finish: (r) => (r instanceof Error ? reject(r) : resolve(r)) });
    });
  }
}

const accepted = (batch: BatchItem[]): BatchResult => ({
  outcomes: batch.map((b) => ({ label: 'Accepted', deliveryId: b.item.id, runIds: [] })),
  committed: [],
});

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('DeliveryWriter (group commit over a batch store)', () => {
  it('answers nobody before the commit holding them resolves, and batches what arrives meanwhile', async () => {
    const store = new ManualStore();
    const writer = new DeliveryWriter(store, { onCommit: () => {}, onError: () => {} });
    const settled: string[] = [];
    const first = writer.accept(item('a')).then(() => settled.push('a'));
    await tick();
    expect(store.batches).toHaveLength(1);
    const later = [writer.accept(item('b')), writer.accept(item('c'))].map((p, i) =>
      p.then(() => settled.push(['b', 'c'][i]!)),
    );
    await tick();
    // One commit in flight at a time: b and c wait for it, then go together.
    expect(store.batches).toHaveLength(1);
    expect(settled).toEqual([]);
    store.batches[0]!.finish(accepted(store.batches[0]!.batch));
    await first;
    await tick();
    expect(store.batches).toHaveLength(2);
    expect(store.batches[1]!.batch.map((b) => b.item.id)).toEqual(['b', 'c']);
    store.batches[1]!.finish(accepted(store.batches[1]!.batch));
    await Promise.all(later);
    expect(settled).toEqual(['a', 'b', 'c']);
    await writer.drain();
  });

  it('fails the whole batch, and only it, when the store throws or rejects', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const store: DeliveryBatchStore = {
      commit(batch) {
        calls++;
        if (calls === 1) throw new Error('disk full');
        return Promise.resolve(accepted(batch));
      },
    };
    const writer = new DeliveryWriter(store, {
      onCommit: () => {},
      onError: (e) => errors.push(e),
    });
    await expect(writer.accept(item('x'))).rejects.toThrow('disk full');
    await expect(writer.accept(item('y'))).resolves.toMatchObject({ label: 'Accepted' });
    expect(errors).toHaveLength(1);
  });

  it('drain waits for the commit in flight', async () => {
    const store = new ManualStore();
    const writer = new DeliveryWriter(store, { onCommit: () => {}, onError: () => {} });
    void writer.accept(item('a'));
    await tick();
    let drained = false;
    const draining = writer.drain().then(() => (drained = true));
    await tick();
    expect(drained).toBe(false);
    store.batches[0]!.finish(accepted(store.batches[0]!.batch));
    await draining;
    expect(drained).toBe(true);
  });
});
