import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CreatedWebhook } from '../../support/relay.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';
import {
  createSignatureWebhook,
  deleteAllWebhooks,
  post,
} from '../signatures/support/relay-calls.js';
import { genuineDelivery, nowSeconds, SENDERS } from '../signatures/support/senders.js';
import { startForward, type ForwardProcess } from './support/forward-cli.js';
import { header, startHandler, type LocalHandler } from './support/handler.js';
import { verifyAsProvider } from './support/verify.js';

const FLOW_MS = 60_000;
const github = SENDERS.find((s) => s.scheme === 'github')!;
const LINE = /^\d\d:\d\d:\d\d {2}(dlv_\w{26}) {2}(\S+) {2}→ {2}(\d{3}) {2}(\d+) ms$/;

/**
 * PRODUCT.md §15 `hookport forward`: a tester's GitHub handler on 127.0.0.1, checking signatures
 * with its own code and counting deliveries by X-GitHub-Delivery. Nothing may arrive twice,
 * nothing may be skipped, and the order is the order the relay accepted them in.
 */
describe('hookport forward', () => {
  let relay: TestRelay;
  let handler: LocalHandler;
  let hook: CreatedWebhook;
  let forwarders: ForwardProcess[] = [];
  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterAll(() => relay.stop());
  beforeEach(async () => {
    handler = await startHandler();
    hook = await createSignatureWebhook(relay, github);
  });
  afterEach(async () => {
    for (const f of forwarders) f.child.kill('SIGKILL');
    await Promise.all(forwarders.map((f) => f.exited));
    forwarders = [];
    await handler.stop();
    await deleteAllWebhooks(relay);
  });

  const run = (...args: string[]): ForwardProcess => {
    const started = startForward(relay, args);
    forwarders.push(started);
    return started;
  };

  /** A genuine GitHub delivery to the relay; its X-GitHub-Delivery. */
  async function deliver(n: number): Promise<string> {
    const genuine = genuineDelivery(github, { text: `push ${n}` });
    const sent = await post(hook.ingressUrl, genuine.body, genuine.headers);
    expect(sent.status).toBe(202);
    return genuine.id;
  }

  /** What the handler saw, by GitHub delivery ID, after checking each signature itself. */
  async function arrivedIds(): Promise<string[]> {
    const ids: string[] = [];
    for (const request of handler.received) {
      expect(await verifyAsProvider(github, request, nowSeconds())).toEqual({
        ok: true,
        why: 'verified',
      });
      ids.push(header(request, 'X-GitHub-Delivery')!);
    }
    return ids;
  }

  it(
    'while the handler is down for 5 deliveries, then up: all 5 arrive once, in order, verified',
    async () => {
      const forwarder = run(hook.webhook.name, '--to', handler.url);
      await forwarder.waitForLine(/^Starting with the next delivery/);
      expect(forwarder.lines()[0]).toBe(
        `Forwarding ${hook.webhook.name} (${hook.webhook.uid}) to ${handler.url}, signed as github with the webhook's own secret.`,
      );
      const sent = [await deliver(0)];
      await waitFor(() => handler.received.length === 1, 'the first delivery', {
        timeoutMs: 10_000,
      });

      const port = handler.port;
      await handler.stop();
      for (let n = 1; n <= 5; n++) sent.push(await deliver(n));
      await forwarder.waitForLine(/handler down \(ECONNREFUSED\); trying again in \d+ s$/);
      await handler.start(port);

      await waitFor(() => handler.received.length >= 6, 'all six at the handler', {
        timeoutMs: 30_000,
      });
      await forwarder.waitForLine(new RegExp(`${await lastDeliveryId()}  \\S+  →  200`));
      expect(await arrivedIds()).toEqual(sent);
      const lines = forwarder.lines().filter((line) => LINE.test(line));
      expect(lines).toHaveLength(6);
      expect(lines.every((line) => LINE.exec(line)![3] === '200')).toBe(true);
      // The event type the relay derived from X-GitHub-Event when it received each one.
      expect(lines.every((line) => LINE.exec(line)![2] === 'push')).toBe(true);
    },
    FLOW_MS,
  );

  async function lastDeliveryId(): Promise<string> {
    const page = await relay.call('deliveries.list', { uid: hook.webhook.uid, limit: 1 });
    return page.items[0]!.id;
  }

  it(
    'killed in the middle of a send and started again: continues with the next, none skipped, none twice',
    async () => {
      const first = run(hook.webhook.uid, '--to', handler.url);
      await first.waitForLine(/^Starting/);
      const sent: string[] = [];
      for (let n = 1; n <= 3; n++) sent.push(await deliver(n));
      await waitFor(() => handler.received.length === 3, 'three forwarded', { timeoutMs: 10_000 });

      // The fourth is at the handler, unanswered, when the forwarder dies; it is still unanswered
      // when the next forwarder asks where to start (starting one takes about a second).
      handler.delayMs = 3_000;
      sent.push(await deliver(4));
      await waitFor(() => handler.arrived === 4, 'the fourth to arrive', { timeoutMs: 10_000 });
      first.child.kill('SIGKILL');
      await first.exited;
      handler.delayMs = 0;
      for (let n = 5; n <= 6; n++) sent.push(await deliver(n));

      const second = run(hook.webhook.name, '--to', handler.url);
      const start = await second.waitForLine(/^Starting/);
      expect(start).toMatch(
        /^Starting after dlv_\w{26}, the last delivery forwarded to this URL\./,
      );
      await waitFor(() => handler.received.length >= 6, 'all six at the handler', {
        timeoutMs: 20_000,
      });
      await second.waitForLine(new RegExp(`${await lastDeliveryId()}  \\S+  →  200`));
      expect(await arrivedIds()).toEqual(sent);
      expect(second.lines().filter((line) => LINE.test(line))).toHaveLength(2);
    },
    FLOW_MS,
  );

  it(
    'stops cleanly on Ctrl-C and says where the next run continues',
    async () => {
      const forwarder = run(hook.webhook.name, '--to', handler.url);
      await forwarder.waitForLine(/^Starting/);
      await deliver(1);
      const line = await forwarder.waitForLine(LINE);
      forwarder.child.kill('SIGINT');
      expect(await forwarder.exited).toBe(0);
      expect(forwarder.lines().at(-1)).toBe(
        `Stopped after forwarding ${LINE.exec(line)![1]}; the next run continues after it.`,
      );
    },
    FLOW_MS,
  );

  it(
    'starts where it is told: --since an ID, or --from-now; --no-sign sends no signature',
    async () => {
      const sent = [await deliver(1), await deliver(2), await deliver(3)];
      const page = await relay.call('deliveries.list', { uid: hook.webhook.uid, limit: 3 });
      const [, second, first] = page.items.map((d) => d.id);

      const fromNow = run(hook.webhook.name, '--to', handler.url, '--from-now');
      await fromNow.waitForLine(/^Starting with the next delivery \(--from-now\)/);
      fromNow.child.kill('SIGINT');
      await fromNow.exited;
      expect(handler.received).toHaveLength(0);

      const since = run(hook.webhook.name, '--to', handler.url, '--since', first!, '--no-sign');
      await since.waitForLine(new RegExp(`^Starting after ${first} \\(--since\\)`));
      await waitFor(() => handler.received.length === 2, 'the two after it', { timeoutMs: 10_000 });
      expect(handler.received.map((r) => header(r, 'X-GitHub-Delivery'))).toEqual(sent.slice(1));
      expect(handler.received.every((r) => header(r, 'X-Hub-Signature-256') === null)).toBe(true);
      expect(since.lines()[0]).toBe(
        `Forwarding ${hook.webhook.name} (${hook.webhook.uid}) to ${handler.url}.`,
      );
      expect(second).toBeDefined();
    },
    FLOW_MS,
  );

  it('refuses a wrong command line (exit 2) and an unknown webhook (exit 1), saying why', async () => {
    const badUrl = run(hook.webhook.name, '--to', 'localhost:3000');
    expect(await badUrl.exited).toBe(2);
    expect(badUrl.stderr()).toContain('forward: --to must be an http:// or https:// URL');
    const both = run(hook.webhook.name, '--to', handler.url, '--from-now', '--since', 'dlv_x');
    expect(await both.exited).toBe(2);
    const unknown = run('nope', '--to', handler.url);
    expect(await unknown.exited).toBe(1);
    expect(unknown.stderr()).toContain(`No webhook named "nope" (webhooks: ${hook.webhook.name}).`);
  });
});
