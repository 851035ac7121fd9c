import { describe, expect, it } from 'vitest';
import { slack } from '../../../src/main/ingress/schemes/slack.js';
import { fixture, received, verify } from './fixtures.js';

const f = fixture('slack');

/**
 * Published vector: "Verifying requests from Slack" (api.slack.com / docs.slack.dev,
 * authentication/verifying-requests-from-slack), the worked example's signing secret,
 * X-Slack-Request-Timestamp, slash-command body and resulting X-Slack-Signature.
 */
const VECTOR = {
  secret: '8f742231b10e8888abcd99yyyzzz85a5',
  timestamp: 1531420618,
  body: Buffer.from(
    'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
  ),
  signature: 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
};

const vectorHeaders = () =>
  received({
    'X-Slack-Request-Timestamp': String(VECTOR.timestamp),
    'X-Slack-Signature': VECTOR.signature,
  });

describe('slack', () => {
  it("verifies Slack's documented example at its own timestamp, with no delivery ID", () => {
    const verdict = verify(f, vectorHeaders(), VECTOR.body, {
      secret: VECTOR.secret,
      now: VECTOR.timestamp * 1000,
    });
    expect(verdict).toEqual({
      ok: true,
      replayKey: expect.any(String) as string,
      deliveryId: null,
    });
  });

  it("signs Slack's documented example exactly", () => {
    const headers = slack.sign({
      body: VECTOR.body,
      secret: VECTOR.secret,
      timestamp: VECTOR.timestamp,
      id: 'unused',
      options: null,
    });
    expect(headers).toEqual({
      'X-Slack-Request-Timestamp': String(VECTOR.timestamp),
      'X-Slack-Signature': VECTOR.signature,
    });
  });

  it('rejects the same example replayed five minutes and one second later', () => {
    const verdict = verify(f, vectorHeaders(), VECTOR.body, {
      secret: VECTOR.secret,
      now: (VECTOR.timestamp + 301) * 1000,
    });
    expect(verdict).toEqual({ ok: false, reason: 'timestamp outside the 300 s tolerance' });
  });

  it('rejects a signature under another version prefix', () => {
    const headers = vectorHeaders();
    headers['x-slack-signature'] = [VECTOR.signature.replace('v0=', 'v1=')];
    const verdict = verify(f, headers, VECTOR.body, {
      secret: VECTOR.secret,
      now: VECTOR.timestamp * 1000,
    });
    expect(verdict).toEqual({
      ok: false,
      reason: 'malformed X-Slack-Signature header (expected v0=<signature>)',
    });
  });
});
