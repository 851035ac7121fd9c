import type { RunOutcome } from '../../store/runs.js';
import type { RunProcess } from '../run-process.js';

/** What an executor gets: the run, its input and payload, and a signal that fires when the relay stops. */
export interface RunJob {
  runId: string;
  automationId: string;
  deliveryId: string;
  webhookUid: string;
  /** The delivery's event type (§13), or null when unknown. */
  eventType: string | null;
  /** PROMPT.md: the automation prompt, then the platform envelope. */
  input: string;
  /** event-payload.json: the raw body bytes exactly as received. */
  payload: Buffer;
  signal: AbortSignal;
  /** A `command` run's program has started: recorded so that a later start can find it. */
  started: (process: RunProcess) => void;
  /** Output as it is printed, so the run page can show it while the run runs. */
  onOutput?: (chunk: Buffer) => void;
  /** `command` runs of a factory with `mcpForRuns`: the MCP endpoint and the run's own token. */
  mcp?: { url: string; token: string } | null;
}

/** How the run ended; `interrupted` is the dispatcher's to decide (the relay stopped). */
export type ExecutionResult = Omit<RunOutcome, 'status'> & { status: 'succeeded' | 'failed' };

export const failed = (
  error: string,
  output: string | null = null,
  exitCode: number | null = null,
): ExecutionResult => ({
  status: 'failed',
  exitCode,
  output,
  error,
});
