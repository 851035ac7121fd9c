import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import {
  createSignatureWebhook,
  deleteAllWebhooks,
  newestEntry,
  post,
} from './support/relay-calls.js';
import { genuineDelivery, SENDERS, type ProviderSender } from './support/senders.js';

/** Sender headers with `name` (any spelling) dropped or given another value. */
function withHeader(
  headers: Record<string, string>,
  name: string,
  value: string | string[] | null,
): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = Object.fromEntries(
    Object.entries(headers).filter(([key]) => key.toLowerCase() !== name.toLowerCase()),
  );
  if (value !== null) kept[name] = value;
  return kept;
}

const bySchemes = SENDERS.map((s) => [s.scheme, s] as const);

describe('signature headers a provider would never send', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => deleteAllWebhooks(relay));
  afterAll(() => relay.stop());

  async function sendWith(
    sender: ProviderSender,
    name: string,
    value: (genuine: string) => string | string[] | null,
  ) {
    const { webhook, ingressUrl } = await createSignatureWebhook(relay, sender);
    const { body, headers } = genuineDelivery(sender);
    const genuine = Object.entries(headers).find(([k]) => k.toLowerCase() === name.toLowerCase());
    const sent = await post(ingressUrl, body, withHeader(headers, name, value(genuine?.[1] ?? '')));
    const logged = await newestEntry(relay, webhook.uid);
    expect(sent.status).toBe(401);
    expect(logged.label).toBe('Rejected (auth)');
    expect(logged.reason).not.toContain(sender.secret);
    return logged.reason;
  }

  it.each(bySchemes)('%s: each required header missing → 401 naming it', async (_n, sender) => {
    for (const name of sender.requiredHeaders) {
      const reason = await sendWith(sender, name, () => null);
      expect(reason?.toLowerCase()).toContain(`missing ${name.toLowerCase()} header`);
    }
  });

  it.each(bySchemes)('%s: a malformed header → 401 saying what is wrong', async (_n, sender) => {
    for (const { header, value, reason } of sender.malformed) {
      expect(await sendWith(sender, header, () => value)).toMatch(reason);
    }
  });

  it.each(bySchemes)(
    '%s: the signature header sent twice → 401, even when both copies are genuine',
    async (_n, sender) => {
      const reason = await sendWith(sender, sender.signatureHeader, (genuine) => [
        genuine,
        genuine,
      ]);
      expect(reason?.toLowerCase()).toContain(`repeated ${sender.signatureHeader.toLowerCase()}`);
    },
  );

  it('the relay answers these with 401, never 500: garbage in every signature header', async () => {
    for (const sender of SENDERS) {
      const { ingressUrl } = await createSignatureWebhook(relay, sender);
      const { body, headers } = genuineDelivery(sender);
      const garbage = Object.fromEntries(
        Object.keys(headers).map((name) => [name, '=,;v1,t=\u00ff\u00fe ,,==']),
      );
      const sent = await post(ingressUrl, body, garbage);
      expect(sent.status, sender.scheme).toBe(401);
    }
  });
});
