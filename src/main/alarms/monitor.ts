import { DEFAULT_AUTH_FAILURE_STREAK, type AlarmKind } from '../../shared/contract/alarms.js';
import type { EventBus } from '../events.js';
import { describeError, type Logger } from '../log.js';
import type { AlarmsRepository, RaisedAlarm } from '../store/alarms.js';
import type { CommittedDelivery } from '../store/delivery-batch.js';
import type { WebhookRecord } from '../store/webhooks.js';
import type { LinkCheck } from '../../shared/contract/links.js';
import type { LinkAlarms } from './link-alarms.js';
import type { AlarmNotice, AlarmNotifier } from './notifier.js';
import {
  AUTH_RECOVERY,
  CADENCE_OFF_END,
  LINK_RECOVERY,
  DISABLED_END,
  STREAK_OFF_END,
  authMessage,
  quietMessage,
  quietRecovery,
} from './words.js';

const MINUTE_MS = 60_000;
const CHECK_EVERY_MS = 30_000;
/** Streaks are counted exactly up to here; a longer one still reads "1,000". */
const STREAK_CAP = 1_000;
/**
 * Entries that say nothing about whether senders hold the credential, so neither extend nor end
 * a streak of auth failures: a 413 is answered before a signature is checked, and a flood of
 * them must not hide an ongoing auth attack.
 */
const SILENT_ON_AUTH: ReadonlySet<string> = new Set(['Rejected (too large)']);

export interface AlarmMonitorDeps {
  alarms: AlarmsRepository;
  webhooks: { get(uid: string): Promise<WebhookRecord | null>; live(): Promise<WebhookRecord[]> };
  notifier: AlarmNotifier;
  events: EventBus;
  log: Logger;
  now: () => number;
  /** Provider links whose check fails (PRODUCT §19); none without. */
  links?: LinkAlarms;
}

/** An alarm raised now, with what it says. */
export interface ActiveAlarm extends RaisedAlarm {
  webhookName: string;
  factoryId: string;
  message: string;
}

const raisedSince = (
  raised: readonly RaisedAlarm[],
  uid: string,
  kind: AlarmKind,
): number | undefined => raised.find((a) => a.webhookUid === uid && a.kind === kind)?.since;

interface WebhookState {
  /** Rejected (auth) entries at the head of the log, newest first. */
  streak: number;
  lastAcceptedAt: number | null;
  /** The webhook had no alarm raised when last checked (false until a check has run). */
  calm: boolean;
}

interface EffectiveSettings {
  expectedEveryMinutes: number | null;
  cadenceSetAt: number;
  authFailureStreak: number | null;
}

/**
 * Watches every live webhook for two things a gateway would not tell the operator: no accepted
 * delivery within its expected cadence ("quiet"), and a log whose newest entries are all
 * Rejected (auth) ("auth"). Each episode raises one alarm and, when it ends, one recovery; the
 * raised alarms are kept in SQLite, so a restart neither repeats nor forgets one. Commits are
 * watched as they happen; the quiet check runs every 30 s (and on demand, for tests with an
 * injected clock).
 */
export class AlarmMonitor {
  private readonly states = new Map<string, WebhookState>();
  private timer: NodeJS.Timeout | null = null;
  /** Checks run one after another, in the order asked for (commits are counted in log order). */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly deps: AlarmMonitorDeps) {}

  start(): void {
    void this.evaluate();
    this.timer = setInterval(() => void this.evaluate(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  /** Resolves once every check asked for so far has run (before the store closes). */
  idle(): Promise<void> {
    return this.queue;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async settingsOf(webhook: WebhookRecord): Promise<EffectiveSettings> {
    const saved = await this.deps.alarms.settings(webhook.uid);
    return (
      saved ?? {
        expectedEveryMinutes: null,
        cadenceSetAt: webhook.createdAt,
        authFailureStreak: DEFAULT_AUTH_FAILURE_STREAK,
      }
    );
  }

  /**
   * After each commit, in log order. A webhook with no alarm raised whose streak of auth
   * failures is 0 after the batch can neither raise nor recover one from these deliveries, so
   * it is not checked (three database reads a batch on PostgreSQL); the 30 s check still runs.
   */
  onCommitted(committed: readonly CommittedDelivery[]): void {
    void this.guarded(async () => {
      const touched = new Set<string>();
      for (const delivery of committed) {
        // A webhook's state is loaded once: no Promise per delivery after that.
        const state =
          this.states.get(delivery.webhookUid) ?? (await this.state(delivery.webhookUid));
        if (delivery.label === 'Rejected (auth)')
          state.streak = Math.min(STREAK_CAP, state.streak + 1);
        else if (!SILENT_ON_AUTH.has(delivery.label)) state.streak = 0;
        if (delivery.label === 'Accepted') state.lastAcceptedAt = delivery.receivedAt;
        touched.add(delivery.webhookUid);
      }
      for (const uid of touched) {
        const state = await this.state(uid);
        if (!state.calm || state.streak > 0) await this.check(uid);
      }
    });
  }

  /** Checks every live webhook now (the timer calls this; so can a test, with its own clock). */
  evaluate(): Promise<void> {
    return this.guarded(async () => {
      const live = new Map((await this.deps.webhooks.live()).map((w) => [w.uid, w]));
      for (const uid of live.keys()) await this.check(uid);
      // Alarms of deleted webhooks simply end: nobody is waiting for their deliveries any more.
      for (const alarm of await this.deps.alarms.raised()) {
        if (!live.has(alarm.webhookUid)) await this.deps.alarms.clear(alarm.webhookUid, alarm.kind);
      }
    });
  }

  /** Settings changed (or the webhook was enabled, disabled or deleted): look again at once. */
  recheck(uid: string): Promise<void> {
    return this.guarded(async () => {
      this.states.delete(uid);
      await this.check(uid);
    });
  }

  async active(): Promise<ActiveAlarm[]> {
    const now = this.deps.now();
    const out: ActiveAlarm[] = [];
    for (const alarm of await this.deps.alarms.raised()) {
      const webhook = await this.deps.webhooks.get(alarm.webhookUid);
      if (!webhook || webhook.deletedAt !== null) continue;
      out.push({
        ...alarm,
        webhookName: webhook.name,
        factoryId: webhook.factoryId,
        message: await this.message(webhook, alarm.kind, now),
      });
    }
    for (const alarm of (await this.deps.links?.active()) ?? []) {
      const webhook = await this.deps.webhooks.get(alarm.webhookUid);
      if (!webhook || webhook.deletedAt !== null) continue;
      out.push({
        ...alarm,
        kind: 'link',
        webhookName: webhook.name,
        factoryId: webhook.factoryId,
      });
    }
    return out;
  }

  /** A provider link was checked: its alarm is raised on the first failing check, ended on a pass. */
  linkChecked(uid: string, check: LinkCheck, previous: LinkCheck | null): Promise<void> {
    return this.guarded(async () => {
      const change = this.deps.links?.follow(uid, check, previous);
      const webhook = change ? await this.deps.webhooks.get(uid) : null;
      if (!change || !webhook || webhook.deletedAt !== null) return;
      const now = this.deps.now();
      const message =
        change.event === 'alarm'
          ? (((await this.deps.links?.active()) ?? []).find((a) => a.webhookUid === uid)?.message ??
            check.problems.join(' '))
          : LINK_RECOVERY;
      const say = change.event === 'alarm' ? 'warn' : 'info';
      this.deps.log[say](`[alarms] ${webhook.name} (${webhook.uid}): ${message}`);
      await this.announce(webhook, 'link', change.event, change.since, now, message);
    });
  }

  private async state(uid: string): Promise<WebhookState> {
    let state = this.states.get(uid);
    if (!state) {
      const labels = await this.deps.alarms.newestLabels(uid, STREAK_CAP);
      const lastAcceptedAt = await this.deps.alarms.lastAcceptedAt(uid);
      // Another caller may have loaded it meanwhile: the first one loaded counts.
      state = this.states.get(uid);
      if (state) return state;
      const firstOther = labels.findIndex(
        (label) => label !== 'Rejected (auth)' && !SILENT_ON_AUTH.has(label),
      );
      const streakEntries = firstOther === -1 ? labels : labels.slice(0, firstOther);
      state = {
        streak: streakEntries.filter((label) => label === 'Rejected (auth)').length,
        lastAcceptedAt,
        calm: false,
      };
      this.states.set(uid, state);
    }
    return state;
  }

  private async quietSince(webhook: WebhookRecord, settings: EffectiveSettings): Promise<number> {
    const lastAccepted = (await this.state(webhook.uid)).lastAcceptedAt ?? 0;
    return Math.max(lastAccepted, settings.cadenceSetAt, webhook.createdAt);
  }

  private async message(webhook: WebhookRecord, kind: AlarmKind, now: number): Promise<string> {
    const settings = await this.settingsOf(webhook);
    if (kind === 'auth') return authMessage((await this.state(webhook.uid)).streak);
    return quietMessage(
      now - (await this.quietSince(webhook, settings)),
      settings.expectedEveryMinutes ?? 0,
    );
  }

  private async check(uid: string): Promise<void> {
    const webhook = await this.deps.webhooks.get(uid);
    if (!webhook || webhook.deletedAt !== null) return;
    const raised = new Set(
      (await this.deps.alarms.raised()).filter((a) => a.webhookUid === uid).map((a) => a.kind),
    );
    const now = this.deps.now();
    const settings = await this.settingsOf(webhook);
    const state = await this.state(uid);

    // A disabled webhook is quiet on purpose.
    const cadence = webhook.enabled ? settings.expectedEveryMinutes : null;
    const quietFrom = await this.quietSince(webhook, settings);
    const quiet = cadence !== null && now - quietFrom > cadence * MINUTE_MS;
    if (quiet && !raised.has('quiet')) {
      await this.raise(webhook, 'quiet', quietFrom + cadence * MINUTE_MS, now);
    } else if (!quiet && raised.has('quiet')) {
      const why =
        settings.expectedEveryMinutes === null
          ? CADENCE_OFF_END
          : !webhook.enabled
            ? DISABLED_END
            : quietRecovery(
                now -
                  (raisedSince(await this.deps.alarms.raised(), uid, 'quiet') ?? now) +
                  settings.expectedEveryMinutes * MINUTE_MS,
              );
      await this.recover(webhook, 'quiet', why, now);
    }

    const threshold = settings.authFailureStreak;
    const failing = threshold !== null && state.streak >= threshold;
    if (failing && !raised.has('auth')) {
      await this.raise(webhook, 'auth', now, now);
    } else if (!failing && raised.has('auth')) {
      await this.recover(webhook, 'auth', threshold === null ? STREAK_OFF_END : AUTH_RECOVERY, now);
    }
    state.calm = !quiet && !failing;
  }

  private async raise(
    webhook: WebhookRecord,
    kind: AlarmKind,
    since: number,
    now: number,
  ): Promise<void> {
    if (!(await this.deps.alarms.raise({ webhookUid: webhook.uid, kind, since }))) return;
    const message = await this.message(webhook, kind, now);
    this.deps.log.warn(`[alarms] ${webhook.name} (${webhook.uid}): ${message}`);
    await this.announce(webhook, kind, 'alarm', since, now, message);
  }

  private async recover(
    webhook: WebhookRecord,
    kind: AlarmKind,
    message: string,
    now: number,
  ): Promise<void> {
    const since = raisedSince(await this.deps.alarms.raised(), webhook.uid, kind) ?? now;
    if (!(await this.deps.alarms.clear(webhook.uid, kind))) return;
    this.deps.log.info(`[alarms] ${webhook.name} (${webhook.uid}): ${message}`);
    await this.announce(webhook, kind, 'recovery', since, now, message);
  }

  private async announce(
    webhook: WebhookRecord,
    kind: AlarmKind,
    event: AlarmNotice['event'],
    since: number,
    now: number,
    message: string,
  ): Promise<void> {
    this.deps.events.emit({ type: 'changed', resource: 'alarms' });
    const config = await this.deps.alarms.notification(webhook.factoryId);
    if (!config) return;
    this.deps.notifier.send(config, {
      event,
      kind,
      webhook: { uid: webhook.uid, name: webhook.name, factory: webhook.factoryId },
      since: new Date(since).toISOString(),
      at: new Date(now).toISOString(),
      message,
    });
  }

  /** Queued behind the checks asked for before; a failure is logged, never thrown. */
  private guarded(work: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(work).catch((error: unknown) => {
      this.deps.log.error(`[alarms] ${describeError(error)}`);
    });
    return this.queue;
  }
}
