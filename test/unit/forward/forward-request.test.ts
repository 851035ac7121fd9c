import { describe, expect, it } from 'vitest';
import { buildForwardRequest } from '../../../src/main/forward/forward-request.js';

const signature = {
  authMode: 'signature' as const,
  signatureScheme: 'github' as const,
  signatureOptions: null,
};
const token = { authMode: 'token' as const, signatureScheme: null, signatureOptions: null };
const NOW = 1_767_000_000_000;

const build = (
  headers: Array<[string, string]>,
  webhook: Parameters<typeof buildForwardRequest>[0]['webhook'] = token,
  secret?: string,
) =>
  buildForwardRequest({
    stored: { method: 'POST', path: '/webhooks/w/wh_x', headers },
    body: Buffer.from('{"a":1}'),
    webhook,
    deliveryId: 'dlv_01JZZZZZZZZZZZZZZZZZZZZZZZ',
    secret,
    nowMs: NOW,
  });

describe('the request a handler gets for a stored delivery', () => {
  it('drops hop-by-hop headers, those Connection names, proxy headers and credentials', () => {
    const { headers } = build([
      ['Host', 'relay.example:8787'],
      ['Content-Length', '7'],
      ['Connection', 'keep-alive, X-Hop'],
      ['Keep-Alive', 'timeout=5'],
      ['Transfer-Encoding', 'chunked'],
      ['TE', 'trailers'],
      ['Trailer', 'X-T'],
      ['Upgrade', 'h2c'],
      ['Proxy-Authorization', '[redacted]'],
      ['Proxy-Connection', 'keep-alive'],
      ['X-Hop', 'by connection'],
      ['Authorization', '[redacted]'],
      ['Cookie', '[redacted]'],
      ['Stripe-Signature', '[redacted]'],
      ['X-Request-Id', 'r-1'],
      ['x-request-id', 'r-2'],
      ['Content-Type', 'application/json'],
    ]);
    expect(headers).toEqual([
      ['X-Request-Id', 'r-1'],
      ['x-request-id', 'r-2'],
      ['Content-Type', 'application/json'],
      ['X-Hookport-Delivery-Id', 'dlv_01JZZZZZZZZZZZZZZZZZZZZZZZ'],
      ['User-Agent', 'hookport-forward'],
    ]);
  });

  it('puts the fresh signature where the stored one stood, keeping the sender’s names and order', () => {
    const { headers, signed } = build(
      [
        ['User-Agent', 'GitHub-Hookshot/abc'],
        ['X-GitHub-Event', 'push'],
        ['X-GitHub-Delivery', 'd-1'],
        ['X-Hub-Signature', '[redacted]'],
        ['X-Hub-Signature-256', '[redacted]'],
        ['Content-Type', 'application/json'],
      ],
      signature,
      'secret',
    );
    expect(signed).toBe(true);
    expect(headers.map(([name]) => name)).toEqual([
      'User-Agent',
      'X-GitHub-Event',
      'X-GitHub-Delivery',
      'X-Hub-Signature-256',
      'Content-Type',
      'X-Hookport-Delivery-Id',
    ]);
    expect(headers[2]).toEqual(['X-GitHub-Delivery', 'd-1']);
    expect(headers[3]![1]).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('adds no credential for a token webhook, and signs nothing without a secret', () => {
    expect(build([['Authorization', '[redacted]']]).headers.map(([n]) => n)).not.toContain(
      'Authorization',
    );
    expect(build([], signature, undefined).signed).toBe(false);
  });

  it('sends a JSON content type for an entry stored before requests were kept', () => {
    const request = buildForwardRequest({
      stored: null,
      body: Buffer.from('{}'),
      webhook: token,
      deliveryId: 'dlv_01JZZZZZZZZZZZZZZZZZZZZZZZ',
      secret: undefined,
      nowMs: NOW,
    });
    expect(request.headers[0]).toEqual(['Content-Type', 'application/json']);
  });
});
