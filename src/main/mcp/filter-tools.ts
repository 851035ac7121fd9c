import { z } from 'zod';
import { automationIdSchema, type TestFilterResult } from '../../shared/contract/automations.js';
import { contract } from '../../shared/contract/index.js';
import { webhookTriggerSchema, type WebhookTrigger } from '../../shared/contract/triggers.js';
import { defineTool, type ContractCall } from './tool.js';

/**
 * The contract's trigger, with its payload and header filters as plain JSON objects: their
 * grammar is checked by zod code that JSON Schema cannot carry, so the contract checks it when
 * the tool calls it, and its message (with the path) comes back as the tool error.
 */
const jsonObject = z.record(z.string(), z.unknown());
const triggerInput = webhookTriggerSchema
  .extend({
    filter: webhookTriggerSchema.shape.filter.extend({
      payload: jsonObject
        .optional()
        .describe(
          'Payload filter: an object shaped like the payload, each value what must be there, e.g. ' +
            '{"action": "opened", "pull_request": {"number": 42}}; operators {"in": [..]}, ' +
            '{"not_in": [..]}, {"exists": true}; list_automations shows real ones',
        ),
      headers: jsonObject
        .optional()
        .describe('Header filter, by header name, in the payload filter grammar'),
    }),
  })
  .describe(
    'A Webhook trigger {provider: "webhook", event: "received", filter: {webhook_ids, payload?, headers?}}',
  );

const automationOrTrigger = {
  automationId: automationIdSchema
    .optional()
    .describe('A saved automation (aut_…): each of its triggers is tested'),
  trigger: triggerInput.optional(),
};
const oneOfThem = {
  check: (args: { automationId?: string; trigger?: unknown }) =>
    (args.automationId === undefined) !== (args.trigger === undefined),
  message: 'give either automationId or trigger (one of them)',
};

interface Subject {
  automation: { id: string; name: string; enabled: boolean } | null;
  triggers: WebhookTrigger[];
}

/** The triggers to test: the one given, or every trigger of the automation named. */
async function subjectOf(
  call: ContractCall,
  args: { automationId?: string | undefined; trigger?: unknown },
): Promise<Subject> {
  if (args.automationId === undefined) {
    return { automation: null, triggers: [args.trigger as WebhookTrigger] };
  }
  const automation = await call('automations.get', { id: args.automationId });
  return {
    automation: { id: automation.id, name: automation.name, enabled: automation.enabled },
    triggers: automation.triggers,
  };
}

/** The first reason a trigger would not fire, in a line. */
function whyNot(result: TestFilterResult): string {
  if (!result.webhookCheck.passed) return `webhook check: ${result.webhookCheck.detail}`;
  for (const [name, check] of [
    ['payload', result.payloadCheck],
    ['header', result.headerCheck],
  ] as const) {
    if (check.passed) continue;
    return check.failingPath === undefined
      ? `${name} check: ${check.detail}`
      : `${name} check failed at "${check.failingPath}": expected ${check.expected ?? '?'}, actual ${check.actual ?? '?'}`;
  }
  return 'every check passed';
}

const disabledNote = (subject: Subject): string[] =>
  subject.automation && !subject.automation.enabled
    ? [`Note: ${subject.automation.name} is disabled, so it starts no runs whatever the verdict.`]
    : [];

export const testFilter = defineTool({
  name: 'test_filter',
  title: 'Test filter',
  description:
    'Would an automation (or an unsaved trigger) start a run for a stored delivery? The answer to ' +
    '"why did automation X not fire for delivery D". Give `deliveryId` (an Accepted delivery) and ' +
    'either `automationId` or `trigger`. Returns {verdict, automation, triggers}: one result per ' +
    'trigger with its webhook check, payload check and header check; a failed check names its ' +
    'first failing path with the expected and actual values (`failingPath`, `expected`, ' +
    '`actual`) and lists every failing path in `failures`. Changes nothing.',
  methods: ['automations.get', 'automations.testFilter'],
  input: z
    .strictObject({
      deliveryId: contract['automations.testFilter'].input.shape.deliveryId.describe(
        'The delivery to test against, dlv_…',
      ),
      ...automationOrTrigger,
    })
    .refine(oneOfThem.check, oneOfThem.message),
  run: async ({ deliveryId, ...args }, call) => {
    const subject = await subjectOf(call, args);
    const results = await Promise.all(
      subject.triggers.map((trigger) => call('automations.testFilter', { deliveryId, trigger })),
    );
    const verdict = results.some((r) => r.verdict === 'Would trigger')
      ? 'Would trigger'
      : 'Would not trigger';
    const name = subject.automation ? subject.automation.name : 'The trigger';
    return {
      structured: {
        verdict,
        deliveryId,
        automation: subject.automation,
        triggers: results.map((result, index) => ({ index, ...result })),
      },
      summary: [
        `${name}: ${verdict} for ${deliveryId}.`,
        ...results.map(
          (r, i) =>
            `Trigger ${i + 1}: ${r.verdict}` +
            (r.verdict === 'Would trigger' ? '' : ` (${whyNot(r)})`),
        ),
        ...(results.length === 0 ? ['It has no triggers.'] : []),
        ...disabledNote(subject),
      ].join('\n'),
    };
  },
});

const matchesInput = contract['automations.filterMatches'].input.shape;

export const filterMatches = defineTool({
  name: 'filter_matches',
  title: 'Filter matches',
  description:
    "Filter lab: runs an automation's triggers (or one unsaved trigger) over the newest stored " +
    'Accepted deliveries of the webhooks each trigger selects, and says which would start a run. ' +
    'Returns {automation, triggers: [{index, scanned, matched, items}]}: each item has the ' +
    'delivery ID, event type, verdict and, when it would not trigger, the first failing check in ' +
    'a line (`detail`). `limit`: how many of the newest deliveries to scan per trigger (default ' +
    '500, at most 1000). Changes nothing.',
  methods: ['automations.get', 'automations.filterMatches'],
  input: z
    .strictObject({ ...automationOrTrigger, limit: matchesInput.limit })
    .refine(oneOfThem.check, oneOfThem.message),
  run: async ({ limit, ...args }, call) => {
    const subject = await subjectOf(call, args);
    const results = await Promise.all(
      subject.triggers.map((trigger) => call('automations.filterMatches', { trigger, limit })),
    );
    const name = subject.automation ? subject.automation.name : 'The trigger';
    return {
      structured: {
        automation: subject.automation,
        triggers: results.map((result, index) => ({ index, ...result })),
      },
      summary: [
        `${name}:`,
        ...results.flatMap((r, i) => {
          const misses = r.items.filter((item) => item.verdict !== 'Would trigger').slice(0, 5);
          return [
            `Trigger ${i + 1}: ${r.matched} of the ${r.scanned} newest Accepted deliveries would trigger.`,
            ...misses.map((m) => `  not ${m.deliveryId} ${m.eventType ?? ''}: ${m.detail ?? ''}`),
          ];
        }),
        ...disabledNote(subject),
      ].join('\n'),
    };
  },
});
