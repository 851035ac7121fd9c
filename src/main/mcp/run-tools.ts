import { z } from 'zod';
import { contract } from '../../shared/contract/index.js';
import type { Run } from '../../shared/contract/runs.js';
import { payloadUri } from './delivery-tools.js';
import { defineTool } from './tool.js';
import { moveLargeFields } from './tool-result.js';

export const runInputUri = (runId: string): string => `hookport://runs/${runId}/input`;
export const runOutputUri = (runId: string): string => `hookport://runs/${runId}/output`;

const SUMMARY_LINES = 20;
const listInput = contract['runs.list'].input.shape;

const runLine = (r: Run): string =>
  [
    r.id,
    r.createdAt,
    r.automationName ?? r.automationId,
    r.status,
    `delivery ${r.deliveryId}`,
    r.error ? `error: ${r.error}` : '',
  ]
    .filter((part) => part !== '')
    .join('  ');

export const listRuns = defineTool({
  name: 'list_runs',
  title: 'List runs',
  description:
    'Runs the relay started for automations, newest first: status (queued, running, succeeded, ' +
    'failed, interrupted), automation, delivery, times, exit code or HTTP status, and the error ' +
    'of a failed one. Narrow with `automationId` and `status`. At most `limit` (default 50, at ' +
    'most 500) per call; to page, call again with `before` = the `nextBefore` you got (null: no ' +
    'more). Input and output are not included: read one with get_run.',
  methods: ['runs.list'],
  input: z.strictObject({
    automationId: listInput.automation.describe('Only runs of this automation, aut_…'),
    status: listInput.status,
    limit: listInput.limit,
    before: listInput.before.describe('The nextBefore of the previous page'),
  }),
  run: async ({ automationId, ...rest }, call) => {
    const page = await call('runs.list', { ...rest, automation: automationId });
    return {
      structured: page,
      summary: [
        `${page.items.length} run(s), newest first.`,
        ...page.items.slice(0, SUMMARY_LINES).map(runLine),
        ...(page.items.length > SUMMARY_LINES
          ? [`… and ${page.items.length - SUMMARY_LINES} more in the result.`]
          : []),
        page.nextBefore ? `More: call again with before="${page.nextBefore}".` : 'No more pages.',
      ].join('\n'),
    };
  },
});

export const getRun = defineTool({
  name: 'get_run',
  title: 'Read a run',
  description:
    'One run by ID (run_…): its status, automation, delivery, exit code or HTTP status, error, its ' +
    'input (PROMPT.md: the automation prompt and the envelope), the payload it was given, and its ' +
    'captured output (stdout and stderr, bounded). Fields that would make the result larger than ' +
    '64 KB are left out (null) and named by `<field>Resource` (hookport://runs/<id>/input, ' +
    'hookport://runs/<id>/output, hookport://deliveries/<id>/payload): read them with ' +
    'resources/read.',
  methods: ['runs.get'],
  input: z.strictObject({
    id: contract['runs.get'].input.shape.id.describe('The run ID, run_…'),
  }),
  run: async ({ id }, call) => {
    const run = await call('runs.get', { id });
    const { structured, links } = moveLargeFields(run, [
      { key: 'payload', uri: payloadUri(run.deliveryId), mimeType: 'application/json' },
      { key: 'input', uri: runInputUri(id), mimeType: 'text/markdown' },
      { key: 'output', uri: runOutputUri(id), mimeType: 'text/plain' },
    ]);
    return {
      structured,
      links,
      summary: [
        runLine(run),
        run.output === null ? 'Output: none captured.' : `Output: ${run.output.length} characters.`,
        ...(links.length > 0
          ? [
              `Too large to include, read with resources/read: ${links.map((l) => l.uri).join(', ')}`,
            ]
          : []),
      ].join('\n'),
    };
  },
});

export const rerun = defineTool({
  name: 'rerun',
  title: 'Re-run a run',
  description:
    'Re-runs a failed or interrupted run by hand, as a new run with the same input (a run is ' +
    're-run at most once). Returns the new run (its `rerunOf` names the old one). Needs a manage ' +
    'token.',
  methods: ['runs.rerun'],
  input: z.strictObject({
    runId: contract['runs.rerun'].input.shape.id.describe('The run to re-run, run_…'),
  }),
  run: async ({ runId }, call) => {
    const run = await call('runs.rerun', { id: runId });
    return {
      structured: run,
      summary: `Re-ran ${runId} as ${run.id} (${run.status}); get_run shows how it goes.`,
    };
  },
});
