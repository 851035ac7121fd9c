import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RelayEvent } from '../../../src/shared/contract/events.js';
import { sync } from '../../support/definitions.js';
import { startTestRelay, tempDir, type TestRelay } from '../../support/relay.js';

/** The UI's status line and Settings page show whether the factory is managed; they reload on this. */
describe('a factory becoming managed', () => {
  let relay: TestRelay;
  let events: RelayEvent[];
  beforeEach(async () => {
    relay = await startTestRelay();
    events = [];
    relay.core.events.subscribe((event) => events.push(event));
  });
  afterEach(() => relay.stop());

  it('is announced even when the directory changes no webhook or automation, and only once', async () => {
    const dir = join(tempDir('hookport-empty-defs-'), 'factory');
    mkdirSync(join(dir, 'webhooks'), { recursive: true });

    expect((await sync(relay, { dir, dryRun: true })).status).toBe(200);
    expect(events).toEqual([]);

    const applied = await sync(relay, { dir });
    expect(applied.body).toMatchObject({ applied: true, items: [] });
    expect(events).toEqual([{ type: 'changed', resource: 'settings' }]);

    await sync(relay);
    expect(events).toHaveLength(1);
  });
});
