import { describe, expect, it } from 'vitest';
import {
  eventHeaders,
  providerEventType,
} from '../../../src/main/ingress/schemes/provider-events.js';
import { SigningError } from '../../../src/main/ingress/schemes/verification.js';
import {
  deliveryEventType,
  eventTypeReadsBody,
} from '../../../src/main/ingress/steps/event-type.js';
import { distinctHeaderReader } from '../../../src/main/ingress/steps/header-lines.js';
import { parseEventTypePath, toEventType } from '../../../src/shared/event-type.js';

const headers = (pairs: Record<string, string>) =>
  distinctHeaderReader(
    Object.fromEntries(Object.entries(pairs).map(([k, v]) => [k.toLowerCase(), [v]])),
  );
const none = headers({});

const webhook = (eventTypePath: string | null) => ({
  authMode: 'token' as const,
  signatureScheme: null,
  eventTypePath,
});

describe('whether a webhook’s event type needs the parsed body', () => {
  // A webhook for which this is false (and no automation selects it) is only checked for JSON.
  it('does for a body path and for a provider that may name the event in the body', () => {
    expect(eventTypeReadsBody(webhook('event.type'))).toBe(true);
    expect(eventTypeReadsBody(webhook('$.items.0.kind'))).toBe(true);
    for (const scheme of ['github', 'stripe', 'slack'] as const) {
      expect(
        eventTypeReadsBody({ authMode: 'signature', signatureScheme: scheme, eventTypePath: null }),
      ).toBe(true);
    }
  });

  it('does not for no path, a header path or the generic HMAC scheme without a path', () => {
    expect(eventTypeReadsBody(webhook(null))).toBe(false);
    expect(eventTypeReadsBody(webhook('header:x-event-name'))).toBe(false);
    expect(
      eventTypeReadsBody({
        authMode: 'signature',
        signatureScheme: 'hmac-sha256',
        eventTypePath: null,
      }),
    ).toBe(false);
    expect(
      eventTypeReadsBody({
        authMode: 'signature',
        signatureScheme: 'hmac-sha256',
        eventTypePath: 'kind',
      }),
    ).toBe(true);
  });
});

describe('event types from a webhook’s eventTypePath', () => {
  it('reads a dotted body path, with or without "$.", indexing arrays by number', () => {
    const body = { event: { type: 'build.done' }, items: [{ kind: 'deploy' }] };
    expect(deliveryEventType(webhook('event.type'), none, body)).toBe('build.done');
    expect(deliveryEventType(webhook('$.event.type'), none, body)).toBe('build.done');
    expect(deliveryEventType(webhook('items.0.kind'), none, body)).toBe('deploy');
    expect(deliveryEventType(webhook('items.first.kind'), none, body)).toBeNull();
    expect(deliveryEventType(webhook('event.missing'), none, body)).toBeNull();
  });

  it('reads header:<name> case-insensitively, even for a refused request whose body was never read', () => {
    const sent = headers({ 'X-Event-Name': 'nightly.finished' });
    expect(deliveryEventType(webhook('header:x-event-name'), sent, undefined)).toBe(
      'nightly.finished',
    );
    expect(deliveryEventType(webhook('event'), sent, undefined)).toBeNull();
  });

  it('keeps numbers and booleans as text, and refuses objects, long or control-character values', () => {
    expect(toEventType(42)).toBe('42');
    expect(toEventType(true)).toBe('true');
    expect(toEventType({ a: 1 })).toBeNull();
    expect(toEventType('')).toBeNull();
    expect(toEventType('x'.repeat(201))).toBeNull();
    expect(toEventType('line\nbreak')).toBeNull();
    expect(toEventType('nul\u0000')).toBeNull();
    expect(toEventType('café ☃')).toBe('café ☃');
  });

  it('refuses paths that could never work, naming why', () => {
    expect(parseEventTypePath('header:Authorization')).toEqual({
      error: 'Authorization carries a credential and is stored as [redacted]; name another header',
    });
    expect(parseEventTypePath('event..type')).toMatchObject({ error: /dotted path/ });
    expect(parseEventTypePath('header:')).toMatchObject({ error: /header name/ });
    expect(parseEventTypePath('')).toMatchObject({ error: /1 to 200/ });
  });

  it('is ignored for provider schemes, which name their own event', () => {
    const github = { authMode: 'signature' as const, signatureScheme: 'github' as const };
    const sent = headers({ 'X-GitHub-Event': 'issues', 'X-Other': 'no' });
    expect(deliveryEventType({ ...github, eventTypePath: 'header:x-other' }, sent, {})).toBe(
      'issues',
    );
  });
});

describe('event types each provider names (§13)', () => {
  it('github: X-GitHub-Event, then "." and the body’s action when there is one', () => {
    const sent = headers({ 'X-GitHub-Event': 'pull_request' });
    expect(providerEventType('github', sent, { action: 'opened', number: 1 })).toBe(
      'pull_request.opened',
    );
    expect(providerEventType('github', headers({ 'X-GitHub-Event': 'push' }), { ref: 'x' })).toBe(
      'push',
    );
    expect(providerEventType('github', sent, undefined)).toBe('pull_request');
    expect(providerEventType('github', none, { action: 'opened' })).toBeNull();
  });

  it('shopify: X-Shopify-Topic, or the Events API’s Shopify-Topic', () => {
    expect(providerEventType('shopify', headers({ 'X-Shopify-Topic': 'orders/paid' }), {})).toBe(
      'orders/paid',
    );
    expect(providerEventType('shopify', headers({ 'Shopify-Topic': 'orders/create' }), {})).toBe(
      'orders/create',
    );
  });

  it('gitlab: X-Gitlab-Event', () => {
    expect(
      providerEventType('gitlab', headers({ 'X-Gitlab-Event': 'Merge Request Hook' }), {}),
    ).toBe('Merge Request Hook');
  });

  it('stripe, standard-webhooks and linear: the body’s type; paddle: event_type', () => {
    expect(providerEventType('stripe', none, { type: 'invoice.paid', object: 'event' })).toBe(
      'invoice.paid',
    );
    expect(providerEventType('standard-webhooks', none, { type: 'user.created' })).toBe(
      'user.created',
    );
    expect(providerEventType('linear', none, { type: 'Issue', action: 'create' })).toBe('Issue');
    expect(providerEventType('paddle', none, { event_type: 'transaction.completed' })).toBe(
      'transaction.completed',
    );
    expect(providerEventType('stripe', none, ['not', 'an', 'object'])).toBeNull();
  });

  it('slack: an event callback names its inner event.type, anything else its type', () => {
    expect(
      providerEventType('slack', none, { type: 'event_callback', event: { type: 'app_mention' } }),
    ).toBe('app_mention');
    expect(providerEventType('slack', none, { type: 'url_verification', challenge: 'c' })).toBe(
      'url_verification',
    );
  });
});

describe('the headers a sender adds for an event', () => {
  it('are spelled as each provider sends them', () => {
    expect(eventHeaders('github', 'pull_request')).toEqual({ 'X-GitHub-Event': 'pull_request' });
    expect(eventHeaders('shopify', 'orders/paid')).toEqual({
      'X-Shopify-Topic': 'orders/paid',
      'X-Shopify-Shop-Domain': 'hookport-send.myshopify.com',
      'X-Shopify-API-Version': '2025-07',
    });
    expect(eventHeaders('gitlab', 'Push Hook')).toEqual({ 'X-Gitlab-Event': 'Push Hook' });
  });

  it('are refused where the provider names its event in the body, or for a name it never sends', () => {
    expect(() => eventHeaders('stripe', 'invoice.paid')).toThrow(SigningError);
    expect(() => eventHeaders('github', 'pull_request.opened')).toThrow(
      /X-GitHub-Event \("pull_request"\) and the action in the body's "action"/,
    );
    expect(() => eventHeaders('gitlab', 'bad\nname')).toThrow(/printable/);
  });
});
