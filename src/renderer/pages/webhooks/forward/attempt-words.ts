import type { Attempt } from '../../../../shared/contract/forwarding.js';

/** "200", "no answer (ECONNREFUSED)": what the handler said, in a few words. */
export const answerText = (attempt: Pick<Attempt, 'status' | 'error'>): string =>
  attempt.status === null ? `no answer (${attempt.error ?? 'unknown'})` : String(attempt.status);

/** The toast after a send: status, time, and whether it was edited. */
export function sentToast(attempt: Attempt): { kind: 'success' | 'error'; text: string } {
  const what = attempt.edited ? 'Edited payload sent' : 'Sent';
  const ok = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
  return {
    kind: ok ? 'success' : 'error',
    text: `${what} to ${attempt.url}: ${answerText(attempt)} in ${attempt.durationMs} ms.`,
  };
}

/** Badge colours by outcome, with the text always saying it (never colour alone). */
export function statusClass(status: number | null): string {
  if (status === null) return 'badge badge-invalid';
  if (status >= 200 && status < 300) return 'badge badge-accepted';
  if (status >= 300 && status < 400) return 'badge badge-duplicate';
  return 'badge badge-rejected';
}
