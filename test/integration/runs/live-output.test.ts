import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createAutomation,
  getRun,
  setExecutor,
  waitForRun,
  webhookTrigger,
} from '../../support/automations.js';
import { getDelivery } from '../../support/deliveries.js';
import { openEventStream } from '../../support/event-stream.js';
import {
  bearer,
  postDelivery,
  startTestRelay,
  tempDir,
  type TestRelay,
} from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';
import { storeConfig, storeKinds } from '../../support/stores.js';

describe.each(storeKinds)('a command run’s output while it runs (%s)', (storeKind) => {
  let relay: TestRelay;
  let dir: string;
  beforeEach(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
    dir = tempDir('hookport-live-');
  });
  afterEach(() => relay.stop());

  it('shows what the command printed so far, announces it, and keeps the whole output at the end', async () => {
    const hook = await relay.createWebhook({ name: 'build' });
    await createAutomation(relay, {
      name: 'build',
      triggers: [webhookTrigger([hook.webhook.uid])],
    });
    const go = join(dir, 'go');
    // Prints a line, then waits for the test to say go before printing the next and exiting 4.
    await setExecutor(relay, {
      kind: 'command',
      command: '/bin/sh',
      args: [
        '-c',
        `echo compiling; while [ ! -f "${go}" ]; do sleep 0.05; done; echo linking >&2; exit 4`,
      ],
    });
    const stream = await openEventStream(relay);
    try {
      const sent = await postDelivery(hook.ingressUrl, '{"ref":"main"}', bearer(hook.secret));
      const [runId] = (await getDelivery(relay, sent.body.delivery_id!)).runIds;
      const running = await waitFor(async () => {
        const run = await getRun(relay, runId!);
        return run.status === 'running' && run.output === 'compiling\n' ? run : null;
      }, 'the first line while the run is running');
      expect(running.finishedAt).toBeNull();
      await waitFor(
        () => stream.events().some((e) => e.type === 'run-output' && e.runId === runId),
        'a run-output event',
      );

      writeFileSync(go, '');
      const finished = await waitForRun(relay, runId!);
      expect(finished).toMatchObject({
        status: 'failed',
        exitCode: 4,
        output: 'compiling\nlinking\n',
      });
    } finally {
      stream.close();
    }
  });
});
