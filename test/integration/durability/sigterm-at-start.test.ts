import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnServe, type ChildRelay } from '../../support/child-relay.js';
import { tempDir } from '../../support/relay.js';

/**
 * A supervisor may stop the relay the moment its banner appears. Node kills a process at once on
 * a signal nobody listens for, so the drain must be listening before the banner is printed.
 */
describe('SIGTERM right after the start banner', () => {
  const relays: ChildRelay[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const relay of relays.splice(0)) {
      if (relay.child.exitCode === null && relay.child.signalCode === null) {
        relay.child.kill('SIGKILL');
        await relay.exited;
      }
    }
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('still drains and exits 0, every time', { timeout: 90_000 }, async () => {
    const exits: unknown[] = [];
    for (let round = 0; round < 8; round++) {
      const dir = tempDir();
      dirs.push(dir);
      const relay = await spawnServe(dir, { HOOKPORT_SECRET_BACKEND: 'file' });
      relays.push(relay);
      relay.child.kill('SIGTERM');
      exits.push(await relay.exited);
    }
    expect(exits).toEqual(Array.from({ length: 8 }, () => ({ code: 0, signal: null })));
  });
});
