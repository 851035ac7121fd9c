import { setTimeout as sleep } from 'node:timers/promises';
import type { HttpExecutorConfig } from '../../../shared/contract/executors.js';
import { BoundedOutput } from './bounded-output.js';
import { failed, type ExecutionResult, type RunJob } from './types.js';

const MAX_BACKOFF_MS = 5 * 60_000;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The request body: a JSON object with the run's identifiers, the PROMPT.md text, and the
 * payload spliced in as the raw bytes received (valid JSON: it parsed at the ingress), so
 * nothing is re-serialized. Only a leading BOM is dropped, since JSON may not carry one inside.
 */
export function httpRunBody(job: RunJob): Buffer {
  const payload = job.payload.subarray(0, 3).equals(UTF8_BOM)
    ? job.payload.subarray(3)
    : job.payload;
  const head = JSON.stringify({
    run_id: job.runId,
    automation_id: job.automationId,
    delivery_id: job.deliveryId,
    webhook_uid: job.webhookUid,
    event_type: job.eventType,
    prompt: job.input,
  });
  return Buffer.concat([Buffer.from(`${head.slice(0, -1)},"payload":`), payload, Buffer.from('}')]);
}

/** 5xx, 408 and 429 may succeed later; other answers will not change on a retry. */
const isRetryable = (status: number): boolean => status >= 500 || status === 408 || status === 429;

async function readBounded(response: Response): Promise<string | null> {
  const output = new BoundedOutput(16 * 1024);
  if (response.body) {
    for await (const chunk of response.body) output.push(Buffer.from(chunk as Uint8Array));
  }
  return output.text();
}

/**
 * Network failures name their cause (ECONNREFUSED, a timeout), never the URL, which may hold a
 * token: a message that quotes one (fetch's own TypeErrors do) has it replaced.
 */
function describeFetchError(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const text =
    cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<the executor URL>');
}

/** POSTs the run input; retries what may pass later with doubling backoff, up to `maxAttempts`. */
export async function executeHttp(
  config: HttpExecutorConfig,
  job: RunJob,
): Promise<ExecutionResult> {
  const body = httpRunBody(job);
  let last = '';
  let lastOutput: string | null = null;
  let httpStatus: number | null = null;
  // Every ending says which status the URL answered last, for the runs list.
  const ended = (result: ExecutionResult): ExecutionResult => ({ ...result, httpStatus });
  for (let attempt = 1; attempt <= config.maxAttempts; attempt++) {
    if (attempt > 1) {
      const delay = Math.min(MAX_BACKOFF_MS, config.backoffSeconds * 1000 * 2 ** (attempt - 2));
      try {
        await sleep(delay, undefined, { signal: job.signal });
      } catch {
        return ended(failed(`stopped before attempt ${attempt}: ${last}`, lastOutput));
      }
    }
    try {
      const response = await fetch(config.url, {
        method: 'POST',
        body,
        redirect: 'manual',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'hookport-run',
          // The same run retried keeps its key, so a receiver can tell a retry from a new run.
          'idempotency-key': job.runId,
          'x-hookport-run-id': job.runId,
          'x-hookport-delivery-id': job.deliveryId,
          'x-hookport-webhook-uid': job.webhookUid,
        },
        signal: AbortSignal.any([job.signal, AbortSignal.timeout(config.timeoutSeconds * 1000)]),
      });
      httpStatus = response.status;
      lastOutput = `HTTP ${response.status}\n${(await readBounded(response)) ?? ''}`.trimEnd();
      if (response.status >= 200 && response.status < 300) {
        return ended({ status: 'succeeded', exitCode: null, output: lastOutput, error: null });
      }
      last = `HTTP ${response.status}`;
      if (response.status >= 300 && response.status < 400) {
        return ended(
          failed(
            `HTTP ${response.status}: redirects are not followed; configure the final URL`,
            lastOutput,
          ),
        );
      }
      if (!isRetryable(response.status))
        return ended(failed(`HTTP ${response.status} (not retried)`, lastOutput));
    } catch (error) {
      if (job.signal.aborted) return ended(failed('stopped while sending', lastOutput));
      last = describeFetchError(error);
    }
  }
  const tries = config.maxAttempts === 1 ? '1 attempt' : `${config.maxAttempts} attempts`;
  return ended(failed(`gave up after ${tries}: ${last}`, lastOutput));
}
