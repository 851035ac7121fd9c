import { createRequire } from 'node:module';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAutomation, waitForRun, webhookTrigger } from '../../support/automations.js';
import { getDelivery } from '../../support/deliveries.js';
import { connectHttp, postMcp } from '../../support/mcp-client.js';
import {
  bearer,
  postDelivery,
  startTestRelay,
  tempDir,
  type TestRelay,
} from '../../support/relay.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/runs/mcp-read-delivery.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

interface Recorded {
  url: string;
  token: string;
  tools: string[];
  apiStatus: number;
  delivery: { id: string; payload: string };
  prompt: string;
}

describe('mcpForRuns: a command run may search the relay while it runs', () => {
  let relay: TestRelay;
  let out: string;
  let send: () => Promise<string>;

  beforeEach(async () => {
    relay = await startTestRelay();
    out = tempDir('hookport-mcp-runs-');
    const created = await relay.createWebhook({ name: 'github-prod' });
    await createAutomation(relay, {
      name: 'reader',
      triggers: [webhookTrigger([created.webhook.uid])],
    });
    send = async () => {
      const sent = await postDelivery(
        created.ingressUrl,
        '{"note":"read me"}',
        bearer(created.secret),
      );
      expect(sent.status).toBe(202);
      return (await getDelivery(relay, sent.body.delivery_id!)).runIds[0]!;
    };
  });
  afterEach(async () => {
    await relay.stop();
    rmSync(out, { recursive: true, force: true });
  });

  const command = () => ({
    kind: 'command' as const,
    command: process.execPath,
    args: ['--import', TSX, FIXTURE, out],
    timeoutSeconds: 60,
  });

  it('is off by default, and only a manage token turns it on', async () => {
    const read = await relay.call('factories.executor', { id: 'default' });
    expect(read).toMatchObject({ executor: { kind: 'record' }, mcpForRuns: false });
    const minted = await relay.call('tokens.create', { name: 'viewer', role: 'view' });
    // The role check is the transport's: read as HTTP.
    const refused = await relay.api(
      'PATCH',
      '/api/factories/default',
      { mcpForRuns: true },
      { token: minted.value },
    );
    expect(refused.status).toBe(403);
    const empty = await relay.callError('factories.update', { id: 'default' });
    expect(empty).toMatchObject({
      code: 'invalid_input',
      message: 'give executor, mcpForRuns or both',
    });
    const on = await relay.call('factories.update', { id: 'default', mcpForRuns: true });
    expect(on).toMatchObject({ executor: { kind: 'record' }, mcpForRuns: true });
  });

  it('gives the run a view token that reads its delivery, and refuses it once the run ended', async () => {
    const patched = await relay.call('factories.update', {
      id: 'default',
      executor: command(),
      mcpForRuns: true,
    });
    expect(patched).toMatchObject({ mcpForRuns: true });
    const run = await waitForRun(relay, await send(), undefined, 30_000);
    expect(run).toMatchObject({ status: 'succeeded', error: null });
    expect(run.output).toContain(run.deliveryId);

    const recorded = JSON.parse(readFileSync(join(out, `${run.id}.json`), 'utf8')) as Recorded;
    expect(recorded.url).toBe(`${relay.adminUrl}/mcp`);
    expect(recorded.delivery).toMatchObject({ id: run.deliveryId, payload: '{"note":"read me"}' });
    expect(recorded.tools).not.toContain('replay_delivery');
    // It opens /mcp and nothing else: not the admin API, not a UI session.
    expect(recorded.apiStatus).toBe(401);
    expect(recorded.prompt).toBe(
      `${run.input}\nThe relay's history (deliveries, automations, runs, Test filter) can be searched with the MCP server at ${relay.adminUrl}/mcp (\`$HOOKPORT_MCP_URL\`, Streamable HTTP; send \`Authorization: Bearer $HOOKPORT_MCP_TOKEN\`, a read-only token that ends with this run).\n`,
    );
    // Never kept in plain text: not in the stored run, its output, its folder or the log.
    expect(JSON.stringify(run)).not.toContain(recorded.token);
    expect(readFileSync(join(relay.dataDir, 'runs', run.id, 'PROMPT.md'), 'utf8')).not.toContain(
      recorded.token,
    );
    expect(relay.logs.join('\n')).not.toContain(recorded.token);

    // The run has ended: its token opens nothing, and says why.
    await expect(connectHttp(relay.adminUrl, recorded.token)).rejects.toThrow(
      'That token is not valid (a run token ends with its run).',
    );
    const raw = await postMcp(relay.adminUrl, recorded.token, { method: 'tools/list' });
    expect(raw.status).toBe(401);
    expect(await raw.json()).toMatchObject({
      error: {
        code: 'unauthorized',
        message: 'That token is not valid (a run token ends with its run).',
      },
    });
  });

  it('gives nothing to the runs of a factory without it', async () => {
    await relay.call('factories.update', { id: 'default', executor: command() });
    const run = await waitForRun(relay, await send(), undefined, 30_000);
    // Without mcpForRuns the fixture has no URL to connect to: it fails, and PROMPT.md says nothing.
    expect(run.status).toBe('failed');
    const prompt = readFileSync(join(relay.dataDir, 'runs', run.id, 'PROMPT.md'), 'utf8');
    expect(prompt).toBe(run.input);
  });
});
