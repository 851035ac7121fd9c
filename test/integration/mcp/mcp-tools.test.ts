import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAutomation,
  setExecutor,
  waitForRun,
  webhookTrigger,
  type Automation,
} from '../../support/automations.js';
import { getDelivery } from '../../support/deliveries.js';
import {
  callTool,
  connectMcp,
  type McpConnection,
  type McpTransportKind,
} from '../../support/mcp-client.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

const READ_TOOLS = [
  'filter_matches',
  'get_delivery',
  'get_run',
  'list_automations',
  'list_runs',
  'list_webhooks',
  'search_deliveries',
  'test_filter',
];

/** The SDK's own client against a real relay, over `/mcp` and over `hookport mcp` (stdio). */
describe.each<McpTransportKind>(['http', 'stdio'])('the MCP server over %s', (kind) => {
  let relay: TestRelay;
  let manage: McpConnection;
  let view: McpConnection;
  let uid: string;
  let secret: string;
  let triage: Automation;
  let pr42: string;
  let pr41: string;
  let issue7: string;
  let runId: string;

  const send = async (body: unknown, event: string): Promise<string> => {
    const webhook = await relay.call('webhooks.get', { uid });
    const sent = await postDelivery(webhook.ingressUrl, JSON.stringify(body), {
      ...bearer(secret),
      'content-type': 'application/json',
      'X-GitHub-Event': event,
    });
    expect(sent.status).toBe(202);
    return sent.body.delivery_id!;
  };

  const deliveryCount = async (): Promise<number> =>
    (await relay.call('deliveries.count', { uid })).total;

  beforeAll(async () => {
    relay = await startTestRelay();
    const created = await relay.createWebhook({
      name: 'github-prod',
      eventTypePath: 'header:X-GitHub-Event',
    });
    uid = created.webhook.uid;
    secret = created.secret!;
    await setExecutor(relay, {
      kind: 'command',
      command: process.execPath,
      args: ['-e', 'console.log("triaged " + process.env.HOOKPORT_DELIVERY_ID)'],
    });
    triage = await createAutomation(relay, {
      name: 'triage',
      triggers: [webhookTrigger([uid], { pull_request: { number: 42 } })],
    });
    pr42 = await send(
      { action: 'opened', pull_request: { number: 42, title: 'Fix the flux capacitor' } },
      'pull_request',
    );
    pr41 = await send(
      { action: 'closed', pull_request: { number: 41, title: 'Tidy the docs' } },
      'pull_request',
    );
    issue7 = await send({ action: 'opened', issue: { number: 7, title: 'It hums' } }, 'issues');
    [runId] = (await getDelivery(relay, pr42)).runIds as [string];
    await waitForRun(relay, runId);
    const minted = await relay.call('tokens.create', { name: 'agent', role: 'view' });
    [manage, view] = await Promise.all([
      connectMcp(kind, relay.adminUrl, relay.adminToken),
      connectMcp(kind, relay.adminUrl, minted.value),
    ]);
    // Two hookport processes starting on a busy machine (stdio) take their time.
  }, 120_000);
  afterAll(async () => {
    await manage?.close();
    await view?.close();
    await relay?.stop();
  });

  it('offers a view token the read tools only, and a manage token replay and rerun too', async () => {
    const names = async (c: McpConnection) =>
      (await c.client.listTools()).tools.map((t) => t.name).sort();
    expect(await names(view)).toEqual(READ_TOOLS);
    expect(await names(manage)).toEqual([...READ_TOOLS, 'replay_delivery', 'rerun'].sort());
    const search = (await view.client.listTools()).tools.find(
      (t) => t.name === 'search_deliveries',
    )!;
    expect(search.description).toContain('nextBefore');
    expect(search.annotations?.readOnlyHint).toBe(true);
  });

  it('searches by text and by event type, across webhooks or in one named', async () => {
    const byText = await callTool(view.client, 'search_deliveries', { q: 'flux capacitor' });
    expect(byText.isError).toBeFalsy();
    expect(byText.data).toMatchObject({ total: 1, nextBefore: null });
    expect(byText.data.items).toEqual([
      expect.objectContaining({ id: pr42, eventType: 'pull_request', webhookName: 'github-prod' }),
    ]);
    expect(byText.summary).toContain(pr42);

    const byType = await callTool(view.client, 'search_deliveries', {
      webhook: 'github-prod',
      eventType: 'pull_request',
    });
    expect((byType.data.items as { id: string }[]).map((d) => d.id)).toEqual([pr41, pr42]);

    const firstPage = await callTool(view.client, 'search_deliveries', { limit: 2 });
    expect(firstPage.data).toMatchObject({ total: 3, nextBefore: pr41 });
    const secondPage = await callTool(view.client, 'search_deliveries', { limit: 2, before: pr41 });
    expect(secondPage.data).toMatchObject({ nextBefore: null });
    expect((secondPage.data.items as { id: string }[]).map((d) => d.id)).toEqual([pr42]);
    expect(firstPage.summary).toContain(`before="${pr41}"`);
  });

  it('reads a delivery with its payload, event type, runs and redacted credentials', async () => {
    const result = await callTool(view.client, 'get_delivery', { id: pr42 });
    expect(result.data).toMatchObject({
      id: pr42,
      label: 'Accepted',
      eventType: 'pull_request',
      runs: [expect.objectContaining({ id: runId, automationName: 'triage', status: 'succeeded' })],
    });
    expect(JSON.parse(result.data.payload as string)).toMatchObject({
      pull_request: { number: 42 },
    });
    expect(result.data.headers).toContainEqual(['authorization', '[redacted]']);
    expect(JSON.stringify(result)).not.toContain(secret);
    expect(result.summary).toContain('"pull_request"');
  });

  it('tests a filter against a delivery and names the failing path', async () => {
    const result = await callTool(view.client, 'test_filter', {
      deliveryId: pr41,
      automationId: triage.id,
    });
    expect(result.data).toMatchObject({
      verdict: 'Would not trigger',
      automation: { id: triage.id, name: 'triage', enabled: true },
      triggers: [
        {
          webhookCheck: { passed: true },
          payloadCheck: {
            passed: false,
            failingPath: 'pull_request.number',
            expected: '42',
            actual: '41',
          },
        },
      ],
    });
    expect(result.summary).toContain('failed at "pull_request.number"');

    const unsaved = await callTool(view.client, 'test_filter', {
      deliveryId: issue7,
      trigger: webhookTrigger([uid], { action: 'opened' }),
    });
    expect(unsaved.data).toMatchObject({ verdict: 'Would trigger', automation: null });

    const matches = await callTool(view.client, 'filter_matches', { automationId: triage.id });
    expect(matches.data).toMatchObject({ triggers: [{ scanned: 3, matched: 1 }] });
  });

  it('lists runs and reads one’s output', async () => {
    const runs = await callTool(view.client, 'list_runs', { automationId: triage.id });
    expect(runs.data.items).toEqual([expect.objectContaining({ id: runId, status: 'succeeded' })]);
    const run = await callTool(view.client, 'get_run', { id: runId });
    expect(run.data).toMatchObject({ id: runId, deliveryId: pr42, output: `triaged ${pr42}\n` });
    expect(run.data.input).toContain('## Webhook delivery');
  });

  it('answers bad input with clear tool errors and changes nothing', async () => {
    const before = await deliveryCount();
    const unknownTool = await callTool(manage.client, 'drop_everything', {});
    expect(unknownTool).toMatchObject({ isError: true });
    expect(unknownTool.summary).toContain('Tool drop_everything not found');

    const invalid = await callTool(view.client, 'get_delivery', { id: 'dlv_nope' });
    expect(invalid.isError).toBe(true);
    expect(invalid.summary).toContain('must be a delivery ID (dlv_ and 26 characters)');

    const extra = await callTool(view.client, 'search_deliveries', { query: 'flux' });
    expect(extra.isError).toBe(true);
    expect(extra.summary).toMatch(/query/);

    const both = await callTool(view.client, 'test_filter', { deliveryId: pr41 });
    expect(both.isError).toBe(true);
    expect(both.summary).toContain('give either automationId or trigger');

    const missing = 'dlv_01J00000000000000000000000';
    const unknown = await callTool(view.client, 'get_delivery', { id: missing });
    expect(unknown).toMatchObject({ isError: true });
    expect(unknown.summary).toBe(`No delivery ${missing}; it may have been pruned.`);

    const badFilter = await callTool(view.client, 'test_filter', {
      deliveryId: pr41,
      trigger: webhookTrigger([uid], { action: { in: [] } }),
    });
    expect(badFilter.isError).toBe(true);
    expect(badFilter.summary).toMatch(/^trigger\.filter\.payload/);

    const replayAsView = await callTool(view.client, 'replay_delivery', { id: pr42 });
    expect(replayAsView.isError).toBe(true);
    expect(replayAsView.summary).toContain('Tool replay_delivery not found');
    expect(await deliveryCount()).toBe(before);
  });

  it('replays a delivery with a manage token, and passes on the API’s refusal of a re-run', async () => {
    const result = await callTool(manage.client, 'replay_delivery', { id: pr42 });
    expect(result.isError).toBeFalsy();
    const replayed = await getDelivery(relay, result.data.delivery_id as string);
    expect(replayed).toMatchObject({ replayOf: pr42, runIds: result.data.runs });
    expect(result.summary).toContain(`Replayed ${pr42} as ${replayed.id}`);

    // rerun is the manage token's too; the API's refusal comes back as it says it.
    const rerun = await callTool(manage.client, 'rerun', { runId });
    expect(rerun).toMatchObject({ isError: true });
    expect(rerun.summary).toBe(
      `${runId} is succeeded; only failed or interrupted runs can be re-run.`,
    );
  });
});
