import { z } from 'zod';
import { factoryIdSchema } from '../../shared/contract/common.js';
import { defineTool } from './tool.js';
import { allWebhooks, factoriesOf } from './relay-scope.js';

const factoryInput = z.strictObject({
  factory: factoryIdSchema.optional().describe('One factory by id; every factory when left out'),
});

export const listWebhooks = defineTool({
  name: 'list_webhooks',
  title: 'List webhooks',
  description:
    'Every webhook of the relay (or of one factory): UID (wh_…), name, factory, how it ' +
    'authenticates, its event type path, whether it is enabled and its ingress URL (a URL token ' +
    'shows as {token}; secrets are never shown). Use a UID or name as `webhook` in ' +
    "search_deliveries and a UID in a trigger's webhook_ids. Returns {items}; no paging.",
  methods: ['factories.list', 'webhooks.list'],
  input: factoryInput,
  run: async ({ factory }, call) => {
    const items = await allWebhooks(call, factory);
    return {
      structured: { items },
      summary: [
        `${items.length} webhook(s).`,
        ...items.map(
          (w) =>
            `${w.uid}  ${w.name}  factory ${w.factory}  ${w.authMode}${w.signatureScheme ? ` (${w.signatureScheme})` : ''}  ${w.enabled ? 'enabled' : 'disabled'}`,
        ),
      ].join('\n'),
    };
  },
});

export const listAutomations = defineTool({
  name: 'list_automations',
  title: 'List automations',
  description:
    'Every automation of the relay (or of one factory): id (aut_…), name, prompt, whether it is ' +
    'enabled, its Webhook triggers (webhook_ids and payload/header filters), the webhooks they ' +
    'select, warnings, and how many runs it started in the last 24 hours. Use an id with ' +
    'test_filter, filter_matches and list_runs. Returns {items}; no paging.',
  methods: ['factories.list', 'automations.list'],
  input: factoryInput,
  run: async ({ factory }, call) => {
    const lists = await Promise.all(
      (await factoriesOf(call, factory)).map((id) => call('automations.list', { factory: id })),
    );
    const items = lists.flatMap((list) => list.items);
    return {
      structured: { items },
      summary: [
        `${items.length} automation(s).`,
        ...items.map(
          (a) =>
            `${a.id}  ${a.name}  ${a.enabled ? 'enabled' : 'disabled'}  ${a.triggers.length} trigger(s)  ${a.runs24h} run(s) in 24 h` +
            (a.warnings.length > 0 ? `  warnings: ${a.warnings.join('; ')}` : ''),
        ),
      ].join('\n'),
    };
  },
});
