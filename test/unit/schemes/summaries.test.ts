import { describe, expect, it } from 'vitest';
import {
  deliverySummary,
  MAX_SUMMARY_LENGTH,
} from '../../../src/main/ingress/schemes/summaries/index.js';

/**
 * Each provider's one-line summary (PRODUCT.md §22) from payloads shaped as the providers
 * document them (trimmed to the fields that matter, plus some that do not): GitHub's "Webhook
 * events and payloads", Stripe's Event object, GitLab's "Webhook events", Shopify's order
 * webhook, Linear's data-change webhooks, Slack's Events API, Paddle Billing's notifications.
 */

const githubRepo = {
  id: 1296269,
  name: 'api',
  full_name: 'acme/api',
  owner: { login: 'acme', id: 1 },
  private: false,
};

describe('delivery summaries, one provider at a time', () => {
  it('GitHub pull request: repo, number, action and title', () => {
    const payload = {
      action: 'opened',
      number: 42,
      pull_request: {
        url: 'https://api.github.com/repos/acme/api/pulls/42',
        id: 1,
        number: 42,
        state: 'open',
        title: 'Fix retries',
        user: { login: 'octocat' },
        body: 'Retries now back off.\n\nCloses #12',
        additions: 120,
      },
      repository: githubRepo,
      sender: { login: 'octocat' },
    };
    expect(deliverySummary('github', 'pull_request.opened', payload)).toBe(
      'acme/api #42 opened: Fix retries',
    );
  });

  it('GitHub issue and issue comment', () => {
    const issue = { number: 7, title: 'Crash on start', state: 'open', user: { login: 'a' } };
    expect(
      deliverySummary('github', 'issues.closed', {
        action: 'closed',
        issue,
        repository: githubRepo,
      }),
    ).toBe('acme/api #7 closed: Crash on start');
    expect(
      deliverySummary('github', 'issue_comment.created', {
        action: 'created',
        issue,
        comment: { body: 'me too' },
        repository: githubRepo,
      }),
    ).toBe('acme/api #7 created: Crash on start');
  });

  it('GitHub push: commits and branch', () => {
    const commit = { id: 'abc', message: 'x', author: { name: 'a' } };
    const push = {
      ref: 'refs/heads/main',
      before: '0000',
      after: '1111',
      repository: githubRepo,
      pusher: { name: 'octocat' },
      commits: [commit, commit, commit],
      head_commit: commit,
    };
    expect(deliverySummary('github', 'push', push)).toBe('acme/api push 3 commits to main');
    expect(deliverySummary('github', 'push', { ...push, commits: [commit] })).toBe(
      'acme/api push 1 commit to main',
    );
  });

  it('GitHub ping and other events: repo and event type', () => {
    expect(
      deliverySummary('github', 'ping', {
        zen: 'Keep it logically awesome.',
        hook_id: 1,
        repository: githubRepo,
      }),
    ).toBe('acme/api ping: Keep it logically awesome.');
    expect(
      deliverySummary('github', 'release.published', {
        action: 'published',
        release: { tag_name: 'v1.2.0', name: 'v1.2.0' },
        repository: githubRepo,
      }),
    ).toBe('acme/api release.published: v1.2.0');
  });

  it('Stripe invoice: type, amount in major units and currency, customer', () => {
    const event = {
      id: 'evt_1NG8Du2eZvKYlo2CUI79vXWy',
      object: 'event',
      api_version: '2022-11-15',
      created: 1686089970,
      data: {
        object: {
          id: 'in_1NG8Dt2eZvKYlo2C',
          object: 'invoice',
          amount_due: 4200,
          amount_paid: 4200,
          amount_remaining: 0,
          currency: 'eur',
          customer: 'cus_NzOc4dK7a1RQ',
          customer_email: 'jenny@example.com',
          status: 'paid',
        },
      },
      livemode: false,
      type: 'invoice.paid',
    };
    expect(deliverySummary('stripe', 'invoice.paid', event)).toBe(
      'invoice.paid · 42.00 EUR · cus_NzOc4dK7a1RQ',
    );
  });

  it('Stripe: an unpaid invoice shows what is owed; zero-decimal currencies; no amount', () => {
    const failed = {
      type: 'invoice.payment_failed',
      data: { object: { amount_due: 1999, amount_paid: 0, currency: 'usd', customer: 'cus_1' } },
    };
    expect(deliverySummary('stripe', 'invoice.payment_failed', failed)).toBe(
      'invoice.payment_failed · 19.99 USD · cus_1',
    );
    const yen = {
      type: 'payment_intent.succeeded',
      data: { object: { id: 'pi_1', amount: 5000, currency: 'jpy', customer: null } },
    };
    expect(deliverySummary('stripe', 'payment_intent.succeeded', yen)).toBe(
      'payment_intent.succeeded · 5000 JPY',
    );
    const customer = {
      type: 'customer.created',
      data: { object: { id: 'cus_9', object: 'customer', email: 'a@example.com' } },
    };
    expect(deliverySummary('stripe', 'customer.created', customer)).toBe(
      'customer.created · cus_9',
    );
  });

  it('GitLab merge request and push', () => {
    const project = { id: 1, name: 'api', path_with_namespace: 'acme/api' };
    expect(
      deliverySummary('gitlab', 'Merge Request Hook', {
        object_kind: 'merge_request',
        event_type: 'merge_request',
        user: { name: 'A' },
        project,
        object_attributes: { iid: 12, title: 'Add caching', action: 'open', state: 'opened' },
      }),
    ).toBe('acme/api !12 open: Add caching');
    expect(
      deliverySummary('gitlab', 'Push Hook', {
        object_kind: 'push',
        ref: 'refs/heads/develop',
        total_commits_count: 2,
        commits: [{}, {}],
        project,
      }),
    ).toBe('acme/api push 2 commits to develop');
  });

  it('Shopify order: topic, name, total and customer', () => {
    expect(
      deliverySummary('shopify', 'orders/paid', {
        id: 820982911946154500,
        email: 'jon@example.com',
        name: '#9999',
        total_price: '403.00',
        currency: 'USD',
        financial_status: 'paid',
        line_items: [{ title: 'IPod Nano' }],
      }),
    ).toBe('orders/paid · #9999 · 403.00 USD · jon@example.com');
  });

  it('Linear issue: type, action, identifier and title', () => {
    expect(
      deliverySummary('linear', 'Issue', {
        action: 'create',
        type: 'Issue',
        createdAt: '2024-01-01T00:00:00.000Z',
        data: { id: 'a1', identifier: 'ENG-12', title: 'Nightly build fails', priority: 2 },
        url: 'https://linear.app/acme/issue/ENG-12',
        webhookTimestamp: 1704067200000,
      }),
    ).toBe('Issue create ENG-12: Nightly build fails');
  });

  it('Slack event callback: event, channel and text', () => {
    expect(
      deliverySummary('slack', 'app_mention', {
        token: 'x',
        team_id: 'T123',
        type: 'event_callback',
        event: { type: 'app_mention', user: 'U1', text: '<@U0> deploy please', channel: 'C42' },
        event_id: 'Ev1',
      }),
    ).toBe('app_mention in C42: <@U0> deploy please');
  });

  it('Paddle transaction: event type, total and customer', () => {
    expect(
      deliverySummary('paddle', 'transaction.completed', {
        event_id: 'evt_01h',
        event_type: 'transaction.completed',
        occurred_at: '2024-01-01T00:00:00Z',
        data: {
          id: 'txn_01',
          customer_id: 'ctm_01',
          currency_code: 'EUR',
          details: { totals: { grand_total: '4200', subtotal: '3529' } },
        },
      }),
    ).toBe('transaction.completed · 42.00 EUR · ctm_01');
  });

  it('Standard Webhooks and token webhooks: the event type and the first short strings', () => {
    expect(
      deliverySummary('standard-webhooks', 'user.created', {
        type: 'user.created',
        timestamp: '2024-01-01T00:00:00Z',
        data: { id: 'usr_1', email: 'a@example.com' },
      }),
    ).toBe('user.created · timestamp: 2024-01-01T00:00:00Z · id: usr_1 · email: a@example.com');
    expect(
      deliverySummary(null, null, {
        job: 'backup',
        log: 'x'.repeat(500),
        result: { status: 'failed', host: 'db-1' },
      }),
    ).toBe('job: backup · status: failed · host: db-1');
  });

  it('is one line of at most 140 characters, or null when the payload says nothing', () => {
    const long = deliverySummary('github', 'issues.opened', {
      action: 'opened',
      issue: { number: 1, title: `Line one\nline two ${'word '.repeat(60)}` },
      repository: githubRepo,
    })!;
    expect(long).not.toMatch(/\n/);
    expect([...long].length).toBeLessThanOrEqual(MAX_SUMMARY_LENGTH);
    expect(long.endsWith('…')).toBe(true);
    expect(deliverySummary(null, null, [1, 2, 3])).toBeNull();
    expect(deliverySummary(null, null, 42)).toBeNull();
    expect(deliverySummary('stripe', null, {})).toBeNull();
    expect(deliverySummary('github', null, undefined)).toBeNull();
  });
});
