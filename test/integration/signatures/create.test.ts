import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SIGNATURE_SCHEMES } from '../../../src/shared/signature-schemes.js';
import type { MethodInput } from '../../../src/shared/contract/index.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { deleteAllWebhooks, post } from './support/relay-calls.js';
import { genuineDelivery, SENDERS } from './support/senders.js';

describe('Add webhook with authMode "signature"', () => {
  let relay: TestRelay;
  let count = 0;
  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => deleteAllWebhooks(relay));
  afterAll(() => relay.stop());

  const withName = (input: Record<string, unknown>) => ({
    name: `signed-${++count}`,
    authMode: 'signature',
    ...input,
  });
  /** The schemes' inputs vary by design here; the relay's schema is what checks them. */
  const create = (input: Record<string, unknown>) =>
    relay.call('webhooks.create', withName(input) as MethodInput<'webhooks.create'>);
  const refusal = (input: Record<string, unknown>) =>
    relay.callError('webhooks.create', withName(input));

  async function expectInvalid(input: Record<string, unknown>, path: string, message: RegExp) {
    const refused = await refusal(input);
    expect(refused).toMatchObject({ code: 'invalid_input', path });
    expect(refused.message).toMatch(message);
    const listed = await relay.call('webhooks.list', {});
    expect(listed.items.map((w) => w.name)).not.toContain(`signed-${count}`);
  }

  it('requires signatureScheme', async () => {
    await expectInvalid(
      { secret: 's3cret' },
      'signatureScheme',
      /required when authMode is "signature"/,
    );
  });

  it('names the allowed schemes when the scheme is unknown', async () => {
    await expectInvalid(
      { signatureScheme: 'bitbucket', secret: 's3cret' },
      'signatureScheme',
      new RegExp(`must be one of: ${SIGNATURE_SCHEMES.join(', ')}`),
    );
  });

  it('refuses a scheme on a token webhook', async () => {
    const refused = await refusal({ authMode: 'token', signatureScheme: 'github' });
    expect(refused.code).toBe('invalid_input');
    expect(refused.message).toMatch(/only for authMode "signature"/);
  });

  it("asks for the provider's secret, except for standard-webhooks", async () => {
    await expectInvalid(
      { signatureScheme: 'github' },
      'secret',
      /paste the provider's signing secret/,
    );
  });

  it('standard-webhooks: a blank secret generates whsec_ + base64 of 24 random bytes, shown once', async () => {
    const { secret, ingressUrl, webhook } = await create({ signatureScheme: 'standard-webhooks' });
    if (secret === null) throw new Error('a generated secret is shown once');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(24);

    const sender = SENDERS.find((s) => s.scheme === 'standard-webhooks')!;
    const delivery = genuineDelivery(sender, { secret });
    expect((await post(ingressUrl, delivery.body, delivery.headers)).status).toBe(202);
    // The raw answer, every field of it: a secret must not be on the wire at all.
    const shown = await relay.api('GET', `/api/webhooks/${webhook.uid}`);
    expect(JSON.stringify(shown.body)).not.toContain(secret.slice('whsec_'.length));
  });

  it('standard-webhooks: refuses a secret that is not (whsec_) base64, which could never verify', async () => {
    await expectInvalid(
      { signatureScheme: 'standard-webhooks', secret: 'whsec_not base64!' },
      'secret',
      /standard-webhooks.*not whsec_ followed by base64/,
    );
  });

  it('refuses a pasted secret with spaces or a line break around it', async () => {
    await expectInvalid(
      { signatureScheme: 'stripe', secret: 'whsec_abc123\n' },
      'secret',
      /spaces or line breaks/,
    );
  });

  describe('hmac-sha256 options', () => {
    const hmac = (signatureOptions?: Record<string, unknown>) => ({
      signatureScheme: 'hmac-sha256',
      secret: 's3cret-value',
      ...(signatureOptions ? { signatureOptions } : {}),
    });

    it('requires them', async () => {
      await expectInvalid(hmac(), 'signatureOptions', /needs \{header, encoding, prefix\}/);
    });

    it('refuses them on any other scheme', async () => {
      await expectInvalid(
        { signatureScheme: 'github', secret: 's', signatureOptions: { header: 'X-Sig' } },
        'signatureOptions',
        /only the hmac-sha256 scheme takes options/,
      );
    });

    it('checks the header name', async () => {
      await expectInvalid(hmac({ header: 'X Sig' }), 'signatureOptions.header', /HTTP header name/);
    });

    it('checks the encoding', async () => {
      await expectInvalid(
        hmac({ header: 'X-Sig', encoding: 'base32' }),
        'signatureOptions.encoding',
        /hex.*base64/,
      );
    });

    it('refuses a prefix no header value can carry', async () => {
      await expectInvalid(
        hmac({ header: 'X-Sig', prefix: 'sha256=\n' }),
        'signatureOptions.prefix',
        /printable ASCII/,
      );
    });

    it('defaults to hex and no prefix, and shows the header lower-cased', async () => {
      const created = await create(hmac({ header: 'X-Sig' }));
      const shown = await relay.call('webhooks.get', { uid: created.webhook.uid });
      expect(shown).toMatchObject({
        signatureScheme: 'hmac-sha256',
        signatureOptions: { header: 'x-sig', encoding: 'hex', prefix: '' },
      });
    });
  });
});
