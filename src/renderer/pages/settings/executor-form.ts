import {
  commandExecutorSchema,
  httpExecutorSchema,
  type ExecutorConfig,
} from '../../../shared/contract/executors.js';
import { ApiError } from '../../../shared/errors.js';

/** The contract's own defaults, so the form never drifts from what the relay would fill in. */
const COMMAND_DEFAULTS = commandExecutorSchema.omit({ command: true }).parse({ kind: 'command' });
const HTTP_DEFAULTS = httpExecutorSchema.omit({ url: true }).parse({ kind: 'http' });

/** What the operator is typing: every kind's fields at once, so switching kinds loses nothing. */
export interface ExecutorDraft {
  kind: ExecutorConfig['kind'];
  command: string;
  args: string;
  cwd: string;
  commandTimeout: string;
  commandConcurrency: string;
  shell: boolean;
  url: string;
  maxAttempts: string;
  backoffSeconds: string;
  httpTimeout: string;
  httpConcurrency: string;
}

export function draftOf(executor: ExecutorConfig): ExecutorDraft {
  const command = executor.kind === 'command' ? executor : { ...COMMAND_DEFAULTS, command: '' };
  const http = executor.kind === 'http' ? executor : { ...HTTP_DEFAULTS, url: '' };
  return {
    kind: executor.kind,
    command: command.command,
    args: command.args.join('\n'),
    cwd: command.cwd ?? '',
    commandTimeout: String(command.timeoutSeconds),
    commandConcurrency: String(command.concurrency),
    shell: command.shell,
    url: http.url,
    maxAttempts: String(http.maxAttempts),
    backoffSeconds: String(http.backoffSeconds),
    httpTimeout: String(http.timeoutSeconds),
    httpConcurrency: String(http.concurrency),
  };
}

function numberAt(text: string, field: string): number {
  const value = text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(value)) {
    const path = `executor.${field}`;
    throw new ApiError('invalid_input', `${path}: must be a number`, path);
  }
  return value;
}

/** The executor to send, or an ApiError (with its path) for a field that is not a number. */
export function executorOf(draft: ExecutorDraft): ExecutorConfig {
  switch (draft.kind) {
    case 'record':
      return { kind: 'record' };
    case 'command':
      return {
        kind: 'command',
        command: draft.command.trim(),
        // One argument per line; blank lines are spacing, not empty arguments.
        args: draft.args.split('\n').filter((line) => line.trim() !== ''),
        ...(draft.cwd.trim() === '' ? {} : { cwd: draft.cwd.trim() }),
        timeoutSeconds: numberAt(draft.commandTimeout, 'timeoutSeconds'),
        concurrency: numberAt(draft.commandConcurrency, 'concurrency'),
        shell: draft.shell,
      };
    case 'http':
      return {
        kind: 'http',
        url: draft.url.trim(),
        maxAttempts: numberAt(draft.maxAttempts, 'maxAttempts'),
        backoffSeconds: numberAt(draft.backoffSeconds, 'backoffSeconds'),
        timeoutSeconds: numberAt(draft.httpTimeout, 'timeoutSeconds'),
        concurrency: numberAt(draft.httpConcurrency, 'concurrency'),
      };
  }
}

export const KIND_TEXT: Record<ExecutorConfig['kind'], { label: string; description: string }> = {
  record: {
    label: 'Record only',
    description: 'Keeps each run and its input and marks it succeeded; runs nothing.',
  },
  command: {
    label: 'Command',
    description:
      'Runs a program in a fresh run folder holding PROMPT.md and event-payload.json; exit 0 succeeds, anything else fails.',
  },
  http: {
    label: 'HTTP',
    description:
      'POSTs each run to a URL; 2xx succeeds; 5xx, 408, 429 and network errors are retried with doubling backoff.',
  },
};
