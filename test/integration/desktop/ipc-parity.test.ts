import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IPC_LEAVE_CHANNEL,
  ipcInvokeChannel,
  type BridgeResult,
} from '../../../src/shared/bridge.js';
import { contractRequest } from '../../../src/shared/contract/http-request.js';
import type { ApiErrorBody } from '../../../src/shared/errors.js';
import {
  contract,
  methodNames,
  type MethodInput,
  type MethodName,
} from '../../../src/shared/contract/index.js';
import { registerContractHandlers } from '../../../src/main/ipc/ipc-transport.js';
import { silentLogger } from '../../../src/main/log.js';
import { IpcMainStandIn } from '../../support/ipc-main-stand-in.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

/** The same call over HTTP, built from the contract's route the way the UI's client does. */
async function overHttp(
  relay: TestRelay,
  method: MethodName,
  input: Record<string, unknown>,
): Promise<BridgeResult> {
  const request = contractRequest(method, input as MethodInput<typeof method>);
  const response = await relay.api<{ error?: ApiErrorBody }>(
    request.method,
    request.pathAndQuery,
    request.body,
  );
  return response.status < 400
    ? { ok: true, value: response.body }
    : { ok: false, error: response.body.error! };
}

/** Path parameters filled with a value no schema accepts, every other field left out. */
function probeInput(method: MethodName): Record<string, unknown> {
  const params = [...contract[method].http.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  return Object.fromEntries(params.map((p) => [p, 'not-an-id']));
}

describe('the IPC transport and the HTTP transport', () => {
  let relay: TestRelay;
  const ipc = new IpcMainStandIn();

  beforeAll(async () => {
    relay = await startTestRelay();
    registerContractHandlers(ipc, relay.core.service, {
      caller: { role: 'manage' },
      isTrustedSender: () => true,
      log: silentLogger,
    });
  });
  afterAll(() => relay.stop());

  it('registers exactly one IPC handler per contract method', () => {
    expect([...ipc.handlers.keys()].sort()).toEqual(methodNames.map(ipcInvokeChannel).sort());
  });

  it.each(methodNames)('%s answers the same through both', async (method) => {
    const input = probeInput(method);
    const [viaIpc, viaHttp] = [
      await ipc.invoke(method, input),
      await overHttp(relay, method, input),
    ];
    expect(viaIpc).toEqual(viaHttp);
  });

  it('refuses a call from a frame that is not the app window, as data with a code', async () => {
    const refusing = new IpcMainStandIn();
    registerContractHandlers(refusing, relay.core.service, {
      caller: { role: 'manage' },
      isTrustedSender: () => false,
      log: silentLogger,
    });
    await expect(refusing.invoke('relay.status', {})).resolves.toEqual({
      ok: false,
      error: { code: 'forbidden', message: 'Only the Hookport window may call the relay.' },
    });
  });

  it('refuses extra arguments and names the bad field of a bad input', async () => {
    expect(await ipc.invoke('relay.status', {}, 'extra')).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await ipc.invoke('webhooks.create', { name: '' })).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'invalid_input', path: 'name' }) as unknown,
    });
  });

  /**
   * The desktop window leaves a call it no longer wants (a search's count, typed on) as the
   * browser closes its request: the relay never begins a read whose asker has left.
   */
  describe('leaving a call', () => {
    let uid: string;
    beforeAll(async () => {
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
});
