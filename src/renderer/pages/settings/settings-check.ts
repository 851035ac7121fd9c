import { contract } from '../../../shared/contract/index.js';
import { checkInput, type LiveCheck } from '../../components/live-check.js';
import type { ExecutorDraft } from './executor-form.js';

/** A number field as typed: a number when it reads as one, else the text (the rule says why). */
const numberOrText = (text: string): number | string =>
  /^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text;

const EXECUTOR_LABELS = {
  'executor.command': 'Command',
  'executor.args': 'Each argument',
  'executor.cwd': 'Working directory',
  'executor.timeoutSeconds': 'Timeout',
  'executor.concurrency': 'Concurrency',
  'executor.url': 'URL',
  'executor.maxAttempts': 'Max attempts',
  'executor.backoffSeconds': 'Backoff',
};

/** The run executor as typed, by the rule factories.update applies. */
export function checkExecutor(draft: ExecutorDraft): LiveCheck {
  const args = draft.args.split('\n').filter((line) => line.trim() !== '');
  const cwd = draft.cwd.trim() === '' ? {} : { cwd: draft.cwd.trim() };
  const executor =
    draft.kind === 'record'
      ? { kind: 'record' }
      : draft.kind === 'command'
        ? {
            kind: 'command',
            command: draft.command.trim(),
            args,
            ...cwd,
            timeoutSeconds: numberOrText(draft.commandTimeout),
            concurrency: numberOrText(draft.commandConcurrency),
            shell: draft.shell,
          }
        : {
            kind: 'http',
            url: draft.url.trim(),
            maxAttempts: numberOrText(draft.maxAttempts),
            backoffSeconds: numberOrText(draft.backoffSeconds),
            timeoutSeconds: numberOrText(draft.httpTimeout),
            concurrency: numberOrText(draft.httpConcurrency),
          };
  return checkInput(
    contract['factories.update'].input,
    { id: 'default', executor },
    EXECUTOR_LABELS,
  );
}

/** Retention as typed, by the rule settings.update applies. */
export function checkRetention(days: string, perWebhook: string): LiveCheck {
  return checkInput(
    contract['settings.update'].input,
    { retentionDays: numberOrText(days), retentionMinPerWebhook: numberOrText(perWebhook) },
    { retentionDays: 'The number of days', retentionMinPerWebhook: 'The number per webhook' },
  );
}

/** The public base URL as typed (blank means the listener's own address). */
export function checkPublicUrl(text: string): LiveCheck {
  const publicUrl = text.trim() === '' ? null : text.trim();
  return checkInput(
    contract['settings.update'].input,
    { publicUrl },
    { publicUrl: 'The public base URL' },
  );
}

/** A token's name as typed, by the rule tokens.create applies. */
export function checkTokenName(name: string, role: 'manage' | 'view'): LiveCheck {
  return checkInput(contract['tokens.create'].input, { name, role }, { name: 'The name' });
}
