import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { AcceptItem, BatchItem } from '../../../src/main/store/delivery-batch.js';
import {
  bodyBytes,
  postedBatch,
  receivedBatch,
  type PostedItem,
} from '../../../src/main/store/sqlite/writer-thread-protocol.js';

/** Through a real port, as the writer thread receives it: the structured clone included. */
async function acrossThreads(batch: BatchItem[]): Promise<BatchItem[]> {
  const scratch = new SharedArrayBuffer(bodyBytes(batch));
  const { port1, port2 } = new MessageChannel();
  try {
    const arrived = new Promise<PostedItem[]>((resolve) =>
      port2.once('message', (posted: PostedItem[]) => resolve(posted)),
    );
    port1.postMessage(postedBatch(batch, scratch));
    return receivedBatch(await arrived);
  } finally {
    port1.close();
    port2.close();
  }
}

const everyField: AcceptItem = {
  id: 'dlv_01KB0000000000000000000001',
  webhookUid: 'wh_every',
  receivedAt: 1_764_000_000_123,
  body: Buffer.from('{"every":"field","Tromsø":true}'),
  identity: 'gh-1',
  identitySource: 'x-service-delivery-id',
  clientAddress: '203.0.113.9',
  runs: [{ id: 'run_1', automationId: 'aut_1', input: 'prompt\n\nenvelope' }],
  request: {
    method: 'POST',
    path: '/webhooks/w/wh_every/{token}?a=1',
    headers: ['Host', 'relay.test', 'Authorization', '[redacted]', 'X-Repeated', 'b'],
  },
  eventType: 'push',
  summary: 'octo/repo: 2 commits',
  replayOf: 'dlv_01KB0000000000000000000000',
  signatureKey: 'sig-digest',
};

describe('a batch posted to the SQLite writer thread', () => {
  it('arrives with every field of every accepted delivery, its body a Buffer of the same bytes', async () => {
    const bare: AcceptItem = {
      ...everyField,
      id: 'dlv_01KB0000000000000000000002',
      body: Buffer.from('{}'),
      clientAddress: null,
      runs: [],
      request: null,
      eventType: null,
      summary: null,
      replayOf: undefined,
      signatureKey: undefined,
    };
    const [first, second] = await acrossThreads([
      { kind: 'accept', item: { ...everyField } },
      { kind: 'accept', item: { ...bare } },
    ]);
    expect(first).toEqual({ kind: 'accept', item: everyField });
    const { replayOf: _r, signatureKey: _s, ...withoutOptional } = bare;
    expect(second).toEqual({ kind: 'accept', item: withoutOptional });
    if (first?.kind !== 'accept' || second?.kind !== 'accept') throw new Error('not accepts');
    expect(Buffer.isBuffer(first.item.body)).toBe(true);
    expect(first.item.body.toString()).toBe('{"every":"field","Tromsø":true}');
    expect(second.item.body.toString()).toBe('{}');
  });

  it('keeps a rejection, and each item in its place', async () => {
    const rejection: BatchItem = {
      kind: 'reject',
      item: {
        id: 'dlv_01KB0000000000000000000003',
        webhookUid: 'wh_every',
        receivedAt: 1_764_000_000_124,
        size: 12,
        label: 'Rejected (invalid JSON)',
        reason: 'Unexpected token',
        clientAddress: '203.0.113.9',
        identity: null,
        identitySource: null,
        request: { method: 'POST', path: '/webhooks/w/wh_every', headers: ['Host', 'relay.test'] },
        eventType: null,
      },
    };
    const received = await acrossThreads([rejection, { kind: 'accept', item: { ...everyField } }]);
    expect(received.map((entry) => entry.kind)).toEqual(['reject', 'accept']);
    expect(received[0]).toEqual(rejection);
    expect(received[1]).toEqual({ kind: 'accept', item: everyField });
  });
});
