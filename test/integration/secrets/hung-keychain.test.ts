import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBE_TIMEOUT_MS, probeKeychain } from '../../../src/main/secrets/keychain-probe.js';
import { startTestRelay, tempDir } from '../../support/relay.js';

/**
 * A session bus that accepts connections and never says a word: what a wedged dbus-daemon looks
 * like to a client. The keychain library would wait on it forever, on the calling thread.
 */
describe('a keychain that never answers', () => {
  let bus: Server;
  const clients: Socket[] = [];
  let previousAddress: string | undefined;
  beforeAll(async () => {
    const path = join(tempDir('hookport-hung-bus-'), 'bus');
    bus = createServer((socket) => clients.push(socket));
    await new Promise<void>((listening) => bus.listen(path, listening));
    previousAddress = process.env.DBUS_SESSION_BUS_ADDRESS;
    process.env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${path}`;
  });
  afterAll(async () => {
    if (previousAddress === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
    else process.env.DBUS_SESSION_BUS_ADDRESS = previousAddress;
    for (const socket of clients) socket.destroy();
    await new Promise((closed) => bus.close(closed));
  });

  it('is given up after the probe time limit, without freezing the event loop meanwhile', async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 100);
    const started = performance.now();
    const probe = await probeKeychain(1_000);
    clearInterval(ticker);
    expect(probe).toEqual({ ok: false, reason: 'no answer within 1 s (a hung D-Bus?)' });
    expect(performance.now() - started).toBeLessThan(3_000);
    // A blocked event loop would have run no timer at all during the second of waiting.
    expect(ticks).toBeGreaterThanOrEqual(5);
    expect(clients.length).toBeGreaterThan(0);
  });

  it('leaves the relay starting on the encrypted file after the time limit', async () => {
    const started = performance.now();
    const relay = await startTestRelay({ secretBackend: undefined });
    try {
      expect(relay.core.secrets.backend).toBe('file');
      expect(performance.now() - started).toBeLessThan(PROBE_TIMEOUT_MS + 3_000);
      const created = await relay.call('secrets.create', { name: 'still-works' });
      expect(created.secret.name).toBe('still-works');
    } finally {
      await relay.stop();
    }
  });

  it('is a clear start-up error when the keychain is required', async () => {
    await expect(startTestRelay({ secretBackend: 'keychain' })).rejects.toThrow(
      /HOOKPORT_SECRET_BACKEND=keychain, but no keychain answered \(no answer within 5 s \(a hung D-Bus\?\)\)/,
    );
  });
});
