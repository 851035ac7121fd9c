import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AlarmKind, AlarmNotification } from '../../shared/contract/alarms.js';
import { describeError, type Logger } from '../log.js';
import { inheritedEnv } from '../runs/executors/command.js';

/** What a factory's notification receives: once when an alarm is raised, once when it recovers. */
export interface AlarmNotice {
  event: 'alarm' | 'recovery';
  /** `tunnel`: the relay's tunnel has been down for more than a minute (PRODUCT §18). */
  kind: AlarmKind | 'tunnel';
  /** Null for an alarm of the whole relay (its tunnel). */
  webhook: { uid: string; name: string; factory: string } | null;
  /** When the episode began (ISO). */
  since: string;
  /** When this notice was sent (ISO). */
  at: string;
  message: string;
}

const HTTP_ATTEMPTS = 3;
const RETRY_DELAY_MS = 1_000;
const KILL_GRACE_MS = 2_000;

/**
 * POSTs the notice as JSON. Network errors and 5xx are tried again (three attempts, 1 s then
 * 2 s apart); any other answer is final. The URL is never logged: it may hold a token.
 */
async function post(
  url: string,
  timeoutSeconds: number,
  notice: AlarmNotice,
): Promise<string | null> {
  let last = '';
  for (let attempt = 1; attempt <= HTTP_ATTEMPTS; attempt++) {
    if (attempt > 1) await sleep(RETRY_DELAY_MS * 2 ** (attempt - 2));
    try {
      const response = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/json', 'user-agent': 'hookport-alarm' },
        body: JSON.stringify(notice),
        signal: AbortSignal.timeout(timeoutSeconds * 1000),
      });
      await response.body?.cancel();
      if (response.status >= 200 && response.status < 300) return null;
      last = `HTTP ${response.status}`;
      if (response.status < 500) return last;
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      last =
        cause ?? (error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'failed');
    }
  }
  return `${last} after ${HTTP_ATTEMPTS} attempts`;
}

/** Runs the command (no shell) with the notice as JSON on stdin and in HOOKPORT_ALARM_* variables. */
function run(
  config: Extract<AlarmNotification, { kind: 'command' }>,
  notice: AlarmNotice,
): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn(config.command, config.args, {
      env: {
        ...inheritedEnv(),
        HOOKPORT_ALARM_EVENT: notice.event,
        HOOKPORT_ALARM_KIND: notice.kind,
        HOOKPORT_ALARM_WEBHOOK_UID: notice.webhook?.uid ?? '',
        HOOKPORT_ALARM_WEBHOOK_NAME: notice.webhook?.name ?? '',
        HOOKPORT_ALARM_MESSAGE: notice.message,
      },
      stdio: ['pipe', 'ignore', 'ignore'],
      windowsHide: true,
    });
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS).unref();
    }, config.timeoutSeconds * 1000);
    child.stdin.on('error', () => {
      // A command that does not read its input is fine.
    });
    child.stdin.end(JSON.stringify(notice));
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve(
        `could not start "${config.command}": ${(error as NodeJS.ErrnoException).code ?? error.message}`,
      );
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(
        code === 0 ? null : code !== null ? `exited with code ${code}` : `ended by ${signal}`,
      );
    });
  });
}

/** Sends notices in the background; a failure is logged, never thrown at the caller. */
export class AlarmNotifier {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly log: Logger) {}

  send(config: AlarmNotification, notice: AlarmNotice): void {
    const what = `${notice.event} (${notice.kind}) for ${notice.webhook?.name ?? 'the relay'}`;
    const sending = (
      config.kind === 'http' ? post(config.url, config.timeoutSeconds, notice) : run(config, notice)
    )
      .then(
        (failure) => {
          if (failure)
            this.log.error(
              `[alarms] the ${config.kind} notification of the ${what} failed: ${failure}`,
            );
        },
        (error: unknown) =>
          this.log.error(
            `[alarms] the ${config.kind} notification of the ${what} failed: ${describeError(error)}`,
          ),
      )
      .finally(() => this.inFlight.delete(sending));
    this.inFlight.add(sending);
  }

  /** Resolves once every notice sent so far has been delivered or has failed. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }
}
