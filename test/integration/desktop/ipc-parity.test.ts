import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ipcInvokeChannel, type BridgeResult } from '../../../src/shared/bridge.js';
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
import { startTestRelay, type TestRelay } from '../../support/relay.js';

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
});
