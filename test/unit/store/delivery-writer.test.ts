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

  it('fails only the item its store could not write; the rest of the batch is answered', async () => {
    const store = new ManualStore();
    const errors: unknown[] = [];
    const writer = new DeliveryWriter(store, {
      onCommit: () => {},
      onError: (e) => errors.push(e),
    });
    const answers = ['a', 'b', 'c'].map((id) => writer.accept(item(id)));
    await tick();
    const [{ batch, finish }] = store.batches as [ManualStore['batches'][number]];
    expect(batch.map((b) => b.item.id)).toEqual(['a', 'b', 'c']);
    finish({
      ...accepted(batch.filter((b) => b.item.id !== 'b')),
      failed: [{ index: 1, id: 'b', message: 'value out of range' }],
    });
    const [a, b, c] = await Promise.allSettled(answers);
    expect(a).toMatchObject({ status: 'fulfilled', value: { deliveryId: 'a' } });
    expect(b).toMatchObject({ status: 'rejected' });
    expect(String((b as PromiseRejectedResult).reason)).toMatch(
      /delivery b could not be written \(the rest of its batch was\): value out of range/,
    );
    expect(c).toMatchObject({ status: 'fulfilled', value: { deliveryId: 'c' } });
    expect(errors).toHaveLength(1);
  });

  it('refuses an item with a value no store takes before it can join a batch', async () => {
    const store = new ManualStore();
    const errors: unknown[] = [];
    const writer = new DeliveryWriter(store, {
      onCommit: () => {},
      onError: (e) => errors.push(e),
    });
    writer.reject({
      id: 'r',
      webhookUid: 'wh_test',
      receivedAt: 0,
      size: 1e19,
      label: 'Rejected (too large)',
      reason: 'body exceeds 262144 bytes',
      clientAddress: null,
      identity: null,
      identitySource: null,
      request: { method: 'POST', path: '/', headers: [] },
      eventType: null,
    });
    await expect(writer.accept({ ...item('x'), receivedAt: 2 ** 53 + 2 })).rejects.toThrow(
      /delivery x was not queued: received at/,
    );
    const good = writer.accept(item('y'));
    await tick();
    expect(store.batches.map((b) => b.batch.map((p) => p.item.id))).toEqual([['y']]);
    store.batches[0]!.finish(accepted(store.batches[0]!.batch));
    await good;
    expect(errors.map(String)).toEqual([
      expect.stringMatching(/delivery r was not queued: a size of 10000000000000000000/),
      expect.stringMatching(/delivery x was not queued/),
    ]);
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

  it('runs up to maxInFlight commits at once, the next batch waiting for one of them to end', async () => {
    const store = new ManualStore();
    const writer = new DeliveryWriter(store, {
      maxInFlight: 2,
      onCommit: () => {},
      onError: () => {},
    });
    const a = writer.accept(item('a'));
    await tick();
    const b = writer.accept(item('b'));
    await tick();
    // A second transaction starts while the first is in flight; a third waits.
    expect(store.batches).toHaveLength(2);
    const c = writer.accept(item('c'));
    const d = writer.accept(item('d'));
    await tick();
    expect(store.batches).toHaveLength(2);
    // The later batch commits first: its delivery is answered, the earlier one still waits.
    let aAnswered = false;
    void a.then(() => (aAnswered = true));
    store.batches[1]!.finish(accepted(store.batches[1]!.batch));
    await expect(b).resolves.toMatchObject({ deliveryId: 'b' });
    expect(aAnswered).toBe(false);
    await tick();
    expect(store.batches).toHaveLength(3);
    expect(store.batches[2]!.batch.map((p) => p.item.id)).toEqual(['c', 'd']);
    store.batches[0]!.finish(accepted(store.batches[0]!.batch));
    store.batches[2]!.finish(accepted(store.batches[2]!.batch));
    await expect(Promise.all([a, c, d])).resolves.toHaveLength(3);
    await writer.drain();
  });

  it('never hands a store more than its maxBatchItems: the rest form the next batches', async () => {
    const store = Object.assign(new ManualStore(), { maxBatchItems: 2 });
    const writer = new DeliveryWriter(store, {
      maxInFlight: 2,
      onCommit: () => {},
      onError: () => {},
    });
    const answers = ['a', 'b', 'c', 'd', 'e'].map((id) => writer.accept(item(id)));
    await tick();
    await tick();
    // Two commits in flight, each at most two items; the fifth waits for one of them to end.
    expect(store.batches.map((b) => b.batch.map((p) => p.item.id))).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    store.batches[0]!.finish(accepted(store.batches[0]!.batch));
    await tick();
    expect(store.batches[2]!.batch.map((p) => p.item.id)).toEqual(['e']);
    store.batches[1]!.finish(accepted(store.batches[1]!.batch));
    store.batches[2]!.finish(accepted(store.batches[2]!.batch));
    const outcomes = await Promise.all(answers);
    expect(outcomes.map((o) => o.deliveryId)).toEqual(['a', 'b', 'c', 'd', 'e']);
    await writer.drain();
  });

  it('settles only once every earlier batch has ended, whichever commits first', async () => {
    const store = new ManualStore();
    const writer = new DeliveryWriter(store, {
      maxInFlight: 2,
      onCommit: () => {},
      onError: () => {},
    });
    const failed = expect(writer.accept(item('a'))).rejects.toThrow('disk full');
    await tick();
    void writer.accept(item('b'));
    await tick();
    let settled = false;
    const settling = writer.settled().then(() => (settled = true));
    store.batches[1]!.finish(accepted(store.batches[1]!.batch));
    await tick();
    // b is written, a is not: a read now could miss a.
    expect(settled).toBe(false);
    store.batches[0]!.finish(new Error('disk full'));
    await settling;
    expect(settled).toBe(true);
    await failed;
  });
});
