import { readFile } from 'node:fs/promises';
import { parseCommandLine } from './command-line.js';
import { webhookTriggerSchema } from '../../shared/contract/triggers.js';
import {
  describeFailure,
  validateFilter,
  type HeaderValues,
  type PayloadFilter,
} from '../../shared/filter/index.js';
import { checkHeaders, checkPayload, verdictOf } from '../automations/payload-check.js';
import { readHeadersFile } from './headers-file.js';
import { parseJsonBody } from '../ingress/steps/parse-json.js';
import { toInputError } from '../service/dispatch.js';
import { UsageError } from './usage.js';

export const TEST_FILTER_HELP = `Usage:
  hookport test-filter --filter FILE --payload FILE [--headers FILE] [--json]

Evaluates a payload filter (and a header filter) against a payload (and headers), offline (no
relay needed): the payload and header halves of Test filter. Exit 0 = Would trigger, 1 = Would
not trigger, 2 = the filter, payload or headers are invalid (the message names the path) or the
command line is wrong. "-" reads standard input.

  --filter FILE    a JSON payload filter ({"action": ["opened"]}), or a whole Webhook trigger
                   ({"provider": "webhook", "event": "received", "filter": {...}}): an object
                   whose only keys are provider, event and filter, with provider "webhook", is
                   read as a trigger and its filter.payload and filter.headers are used
  --payload FILE   the delivery body, read as the relay reads it (UTF-8 JSON, one BOM allowed)
  --headers FILE   the request headers: a JSON object name → value, or → a list of values for
                   a repeated header ({"X-GitHub-Event": "issues"}); needed when the trigger
                   has a header filter
  --json           print {verdict, payloadCheck, headerCheck} as JSON instead of text
`;

/** A bad filter or payload: exit 2, message naming the file and the path. */
class InvalidInput extends Error {}

async function readSource(source: string, flag: string): Promise<Buffer> {
  if (source === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
  try {
    return await readFile(source);
  } catch (error) {
    throw new UsageError(
      `${flag}: cannot read "${source}" (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`,
    );
  }
}

const TRIGGER_KEYS = new Set(['provider', 'event', 'filter']);

/** A whole trigger is recognised by its shape; anything else is a bare payload filter. */
function isTriggerShaped(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return (
    keys.every((k) => TRIGGER_KEYS.has(k)) &&
    (value as { provider?: unknown }).provider === 'webhook'
  );
}

interface Filters {
  payload: PayloadFilter | undefined;
  headers: PayloadFilter | undefined;
}

export function readFilter(value: unknown): Filters {
  if (isTriggerShaped(value)) {
    const parsed = webhookTriggerSchema.safeParse(value);
    if (!parsed.success) throw new InvalidInput(toInputError(parsed.error).message);
    return { payload: parsed.data.filter.payload, headers: parsed.data.filter.headers };
  }
  const checked = validateFilter(value, 'payload');
  if (!checked.ok) throw new InvalidInput(`${checked.path}: ${checked.message}`);
  return { payload: checked.filter, headers: undefined };
}

export async function testFilter(args: string[]): Promise<void> {
  const { values } = parseCommandLine({
    args,
    options: {
      filter: { type: 'string' },
      payload: { type: 'string' },
      headers: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
  });
  if (values.help) {
    console.log(TEST_FILTER_HELP);
    return;
  }
  if (values.filter === undefined || values.payload === undefined) {
    throw new UsageError('test-filter needs --filter FILE and --payload FILE.');
  }
  const fromStdin = [values.filter, values.payload, values.headers].filter((v) => v === '-');
  if (fromStdin.length > 1) {
    throw new UsageError(
      'test-filter: only one of --filter, --payload and --headers can read standard input.',
    );
  }
  const [filterBytes, payloadBytes, headerBytes] = await Promise.all([
    readSource(values.filter, '--filter'),
    readSource(values.payload, '--payload'),
    values.headers === undefined ? null : readSource(values.headers, '--headers'),
  ]);

  let filter: Filters;
  let payload: unknown;
  let headers: HeaderValues | null = null;
  try {
    const filterJson = parseJsonBody(filterBytes);
    if (!filterJson.ok) {
      throw new InvalidInput(
        `${values.filter}: ${filterJson.reason.replace(/^body/, 'the filter')}`,
      );
    }
    try {
      filter = readFilter(filterJson.value);
    } catch (error) {
      throw new InvalidInput(`${values.filter}: ${(error as Error).message}`);
    }
    const payloadJson = parseJsonBody(payloadBytes);
    if (!payloadJson.ok) {
      throw new InvalidInput(
        `${values.payload}: ${payloadJson.reason.replace(/^body/, 'the payload')}`,
      );
    }
    payload = payloadJson.value;
    if (headerBytes !== null) {
      const read = readHeadersFile(headerBytes);
      if (!read.ok) throw new InvalidInput(`${values.headers}: ${read.message}`);
      headers = read.headers;
    } else if (filter.headers && Object.keys(filter.headers).length > 0) {
      throw new InvalidInput(
        `${values.filter}: the trigger filters on headers (filter.headers); give the request's headers with --headers FILE`,
      );
    }
  } catch (error) {
    if (!(error instanceof InvalidInput)) throw error;
    console.error(`hookport test-filter: ${error.message}`);
    process.exitCode = 2;
    return;
  }

  const payloadCheck = checkPayload(filter.payload, payload);
  const headerCheck = checkHeaders(filter.headers, headers ?? {});
  const verdict = verdictOf(payloadCheck, headerCheck);
  if (values.json) {
    console.log(JSON.stringify({ verdict, payloadCheck, headerCheck }, null, 2));
  } else {
    console.log(
      [
        verdict,
        '  - Webhook check   not checked offline (test against a stored delivery in the UI or API)',
        `  ${payloadCheck.passed ? '✓' : '✗'} Payload check   ${payloadCheck.detail}`,
        // The first failure is on the line above; every other failing path follows it.
        ...payloadCheck.failures.slice(1).map((f) => `                    ${describeFailure(f)}`),
        `  ${headerCheck.passed ? '✓' : '✗'} Header check    ${headerCheck.detail}`,
        ...headerCheck.failures.slice(1).map((f) => `                    ${describeFailure(f)}`),
      ].join('\n'),
    );
  }
  process.exitCode = verdict === 'Would trigger' ? 0 : 1;
}
