import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerContractHandlers } from '../../../src/main/ipc/ipc-transport.js';
import { silentLogger } from '../../../src/main/log.js';
import { IPC_LEAVE_CHANNEL } from '../../../src/shared/bridge.js';
import { IpcMainStandIn } from '../../support/ipc-main-stand-in.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

/**
 * The desktop window leaves a call it no longer wants (a search's count, typed on) as the
 * browser closes its request: the relay never begins a read whose asker has left.
 */
describe('leaving a call over IPC', () => {
  let relay: TestRelay;
  let uid: string;
  const ipc = new IpcMainStandIn();

  beforeAll(async () => {
    relay = await startTestRelay();
    registerContractHandlers(ipc, relay.core.service, {
      caller: { role: 'manage' },
      isTrustedSender: () => true,
      log: silentLogger,
    });
    const created = await relay.createWebhook({ name: 'typed' });
    uid = created.webhook.uid;
    for (const city of ['Tromsø', 'Oslo', 'TROMSØ']) {
      const sent = await postDelivery(
        created.ingressUrl,
        JSON.stringify({ city }),
        bearer(created.secret),
      );
      expect(sent.status).toBe(202);
    }
  });
  afterAll(() => relay.stop());

  it('answers a left call with why, and the others with their totals', async () => {
    const asks = ['ask_000000000001', 'ask_000000000002', 'ask_000000000003'];
    const answers = asks.map((ask, i) =>
      ipc.invoke('deliveries.count', { uid, q: 'tromsø', to: Date.now() + i }, ask),
    );
    ipc.send(IPC_LEAVE_CHANNEL, asks[1]);
    ipc.send(IPC_LEAVE_CHANNEL, asks[2]);
    expect(await Promise.all(answers)).toEqual([
      { ok: true, value: { total: 2 } },
      { ok: false, error: { code: 'unavailable', message: 'The request closed first.' } },
      { ok: false, error: { code: 'unavailable', message: 'The request closed first.' } },
    ]);
    // A name asked again after its call was answered is a new call.
    await expect(ipc.invoke('deliveries.count', { uid, q: 'tromsø' }, asks[1])).resolves.toEqual({
      ok: true,
      value: { total: 2 },
    });
  });

  it('ignores a leave that names no call, or is not an ask ID, and refuses a bad ask ID', async () => {
    for (const ask of ['ask_999999999999', 'extra', 42, { ask: 'ask_000000000001' }]) {
      ipc.send(IPC_LEAVE_CHANNEL, ask);
    }
    await expect(ipc.invoke('deliveries.count', { uid }, 'ask_000000000004')).resolves.toEqual({
      ok: true,
      value: { total: 3 },
    });
    await expect(ipc.invoke('deliveries.count', { uid }, 'ask_')).resolves.toEqual({
      ok: false,
      error: {
        code: 'invalid_input',
        message: 'Send one input object, and an ask ID if any.',
      },
    });
  });
});
