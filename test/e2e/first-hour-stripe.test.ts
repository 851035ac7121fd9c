import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { post } from '../integration/signatures/support/relay-calls.js';
import { axeProblems } from './support/axe.js';
import { openUi, useBrowserAndRelay } from './support/browser.js';
import { cutOffParts } from './support/layout.js';
import { deliveryList, deliveryRow, recentDeliveries } from './support/webhooks-ui.js';

/** The signing secret a Stripe endpoint shows (docs.stripe.com, "Receive Stripe events"). */
const SECRET = 'whsec_first_hour_stripe_e2e_0123456789';
const SUMMARY = 'invoice.paid · 42.00 EUR · cus_NzOc4dK7a1RQ';

/**
 * An `invoice.paid` event as Stripe sends it (docs.stripe.com/api/events/object and
 * docs.stripe.com/api/invoices/object), with the fields a real one carries around the ones the
 * summary reads: the type, the amount paid in minor units, its currency, the customer.
 */
const INVOICE_PAID = JSON.stringify({
  id: 'evt_1NG8Du2eZvKYlo2CUI79vXWy',
  object: 'event',
  api_version: '2024-06-20',
  created: 1_764_230_400,
  data: {
    object: {
      id: 'in_1NG8Dt2eZvKYlo2C0WLm7Lgh',
      object: 'invoice',
      account_country: 'DE',
      account_name: 'Acme GmbH',
      amount_due: 4200,
      amount_paid: 4200,
      amount_remaining: 0,
      attempt_count: 1,
      attempted: true,
      billing_reason: 'subscription_cycle',
      collection_method: 'charge_automatically',
      currency: 'eur',
      customer: 'cus_NzOc4dK7a1RQ',
      customer_email: 'jenny.rosen@example.com',
      customer_name: 'Jenny Rosen',
      hosted_invoice_url: 'https://invoice.stripe.com/i/acct_1M2JTkLkdIwHu7ix/test_YWNjdF8x',
      lines: {
        object: 'list',
        data: [
          {
            id: 'il_1NG8Dt2eZvKYlo2C',
            object: 'line_item',
            amount: 4200,
            currency: 'eur',
            description: '1 × Team plan (at €42.00 / month)',
            quantity: 1,
          },
        ],
        has_more: false,
        total_count: 1,
      },
      livemode: false,
      number: 'ACME-0042',
      paid: true,
      period_end: 1_764_230_400,
      period_start: 1_761_552_000,
      status: 'paid',
      subtotal: 4200,
      total: 4200,
    },
  },
  livemode: false,
  pending_webhooks: 1,
  request: { id: null, idempotency_key: null },
  type: 'invoice.paid',
});

/** Another customer's event in the same log: a search must leave it out. */
const CUSTOMER_CREATED = JSON.stringify({
  id: 'evt_1NG8E02eZvKYlo2Cq8f3Xa1b',
  object: 'event',
  api_version: '2024-06-20',
  created: 1_764_230_100,
  data: {
    object: {
      id: 'cus_Q1w2E3r4T5y6U7',
      object: 'customer',
      email: 'max.mustermann@example.com',
      name: 'Max Mustermann',
    },
  },
  livemode: false,
  pending_webhooks: 1,
  request: { id: 'req_a1b2c3', idempotency_key: null },
  type: 'customer.created',
});

/** Signed by Stripe's own library, as Stripe signs a delivery (t=…,v1=HMAC-SHA256). */
const stripe = new Stripe('sk_test_standin_never_used_on_a_network');
const signed = (payload: string) => ({
  'Content-Type': 'application/json; charset=utf-8',
  'Stripe-Signature': stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }),
});

/**
 * Issue 29, Build 2 for Stripe: a paid invoice reads in the log as its type, amount and customer;
 * a search by the amount or the customer finds it and marks the fragment that matched; at
 * 1440×900, light and dark, nothing cut off and nothing axe-core calls serious.
 */
describe('a Stripe invoice in the delivery log at 1440×900', () => {
  const env = useBrowserAndRelay();

  it('reads as “invoice.paid · 42.00 EUR · cus_…”, and a search shows why it matched', async () => {
    const { relay } = env;
    const created = await relay.createWebhook({
      name: 'stripe-billing',
      authMode: 'signature',
      signatureScheme: 'stripe',
      secret: SECRET,
    });
    for (const payload of [CUSTOMER_CREATED, INVOICE_PAID]) {
      const sent = await post(created.ingressUrl, payload, signed(payload));
      expect(sent.status).toBe(202);
    }

    const ui = await openUi(env.browser, { relay, viewport: { width: 1440, height: 900 } });
    const { page } = ui;
    page.setDefaultTimeout(15_000);
    try {
      await page.goto(`${relay.adminUrl}/#/webhooks/${created.webhook.uid}`);
      const row = deliveryRow(page, SUMMARY);
      await row.waitFor();
      expect(await row.getByTestId('delivery-summary').textContent()).toBe(SUMMARY);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        expect(await cutOffParts(page)).toEqual([]);
        expect(await axeProblems(page, `Stripe log, ${scheme}`)).toEqual([]);
      }

      const search = recentDeliveries(page).getByLabel('Search deliveries');
      const rows = deliveryList(page).getByRole('button');
      const mark = deliveryList(page).locator('mark');
      for (const term of ['42.00 EUR', 'cus_NzOc']) {
        await search.fill(term);
        await expect.poll(() => mark.textContent()).toBe(term);
        expect(await rows.count()).toBe(1);
        expect(await rows.first().getByTestId('delivery-summary').textContent()).toBe(SUMMARY);
      }
      expect(await axeProblems(page, 'Stripe search, dark')).toEqual([]);
    } finally {
      await ui.close();
    }
  }, 60_000);
});
