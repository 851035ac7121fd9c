import { PROVIDER_NAMES, type Link, type LinkCheck } from '../../shared/contract/links.js';
import type { EventBus } from '../events.js';
import { describeError, type Logger } from '../log.js';
import type { Reachability, ReachabilityEvent } from '../reachability.js';
import type { TeamSecrets } from '../secrets/team-secrets.js';
import type { RelaySettings } from '../service/relay-settings.js';
import type { LinkRecord } from '../store/links.js';
import type { Store } from '../store/store.js';
import type { WebhookRecord } from '../store/webhooks.js';
import type { ClientFactory } from './clients.js';
import { checkFrom, type ExpectedHook } from './link-check.js';
import { isUnreachableFromInternet } from './private-address.js';
import { ProviderError, type ProviderClient } from './provider.js';
import { recoverLink, type RecoveredItem } from './recover.js';
import { RECOVERY_WINDOW_MS } from './recovery-windows.js';

export const RECOVER_EVERY_MS = 15 * 60_000;

export interface LinkKeeperDeps {
  store: Pick<Store, 'links' | 'webhooks' | 'exclusively'>;
  secrets: TeamSecrets;
  settings: RelaySettings;
  reachability: Reachability;
  events: EventBus;
  clients: ClientFactory;
  log: Logger;
  now: () => number;
  /** Every 15 minutes unless a test says otherwise. */
  recoverEveryMs?: number;
  /** Told after each check and each recovery (metrics, alarms). */
  onCheck?: (webhookUid: string, check: LinkCheck, previous: LinkCheck | null) => void;
  onRecovered?: (link: LinkRecord, asked: number) => void;
}

/**
 * Keeps each linked provider hook pointed at its webhook and recovers what the provider failed
 * to deliver (PRODUCT §19): when the relay becomes reachable (start, tunnel up, wake), when the
 * ingress base moves, every 15 minutes, and on demand. One recovery at a time per link: in this
 * process a queue per link, across relays on one database its advisory lock.
 */
export class LinkKeeper {
  private readonly queues = new Map<string, Promise<unknown>>();
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly background = new Set<Promise<unknown>>();
  private stopped = false;
  /** Identities this relay asked for and has not seen arrive: the live event marks them. */
  private readonly awaited = new Map<string, Set<string>>();

  constructor(private readonly deps: LinkKeeperDeps) {}

  start(): void {
    this.unsubscribe = this.deps.reachability.subscribe((event) => this.onReachability(event));
    this.timer = setInterval(
      () => this.inBackground(this.recoverAll()),
      this.deps.recoverEveryMs ?? RECOVER_EVERY_MS,
    );
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([...this.background]);
  }

  /**
   * Whether an entry just committed is one this relay's recovery asked for (the log reads mark it
   * from the ledger; this marks the live event, before anyone reads).
   */
  arrived(webhookUid: string, identity: string | null, accepted: boolean): boolean {
    const waiting = this.awaited.get(webhookUid);
    if (!accepted || identity === null || !waiting?.has(identity)) return false;
    waiting.delete(identity);
    if (waiting.size === 0) this.awaited.delete(webhookUid);
    return true;
  }

  /**
   * These webhooks' links or ingress URLs changed (a definition file, a rotated URL token): point
   * their hooks again and check them, in the background.
   */
  pointAgain(webhookUids: readonly string[]): void {
    for (const uid of webhookUids) this.inBackground(this.keepPointed(uid));
  }

  /** Waits for whatever the keeper started on its own (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
  }

  private inBackground(work: Promise<unknown>): void {
    const tracked = work.catch((error: unknown) =>
      this.deps.log.error(`[links] ${describeError(error)}`),
    );
    this.background.add(tracked);
    void tracked.finally(() => this.background.delete(tracked));
  }

  private onReachability(event: ReachabilityEvent): void {
    if (this.stopped) return;
    if (event.type === 'ingress-base-changed') this.inBackground(this.pointAll());
    if (event.type === 'reachable') {
      this.inBackground(
        (async () => {
          await this.pointAll();
          await this.recoverAll();
        })(),
      );
    }
  }

  private async pointAll(): Promise<void> {
    for (const link of await this.deps.store.links.live()) {
      await this.keepPointed(link.webhookUid).catch((error: unknown) =>
        this.deps.log.warn(`[links] ${link.webhookUid}: ${describeError(error)}`),
      );
    }
  }

  async recoverAll(): Promise<void> {
    for (const link of await this.deps.store.links.live()) {
      if (!link.recover) continue;
      await this.recover(link.webhookUid, {}).catch((error: unknown) =>
        this.deps.log.warn(`[links] ${link.webhookUid}: ${describeError(error)}`),
      );
    }
  }

  /** One job at a time per link in this process; `job` runs after the one before it. */
  private serially<T>(uid: string, job: () => Promise<T>): Promise<T> {
    const before = this.queues.get(uid) ?? Promise.resolve();
    const run = before.then(job, job);
    const settled = run.catch(() => undefined);
    this.queues.set(uid, settled);
    void settled.then(() => {
      if (this.queues.get(uid) === settled) this.queues.delete(uid);
    });
    return run;
  }

  private async parts(uid: string): Promise<{
    link: LinkRecord;
    webhook: WebhookRecord;
    expected: ExpectedHook;
    client: ProviderClient | null;
    clientProblem: string | null;
  } | null> {
    const link = await this.deps.store.links.get(uid);
    const webhook = await this.deps.store.webhooks.get(uid);
    if (!link || !webhook || webhook.deletedAt !== null) return null;
    const urlToken =
      webhook.authMode === 'url_token'
        ? (this.deps.secrets.cachedValue(webhook.factoryId, webhook.secretName) ?? null)
        : null;
    const expected: ExpectedHook = {
      kind: link.kind,
      webhook,
      url: this.deps.settings.ingressUrl(webhook, urlToken ?? undefined),
      shownUrl: this.deps.settings.ingressUrl(webhook),
      urlToken,
      keepPointed: link.keepPointed,
    };
    const token = this.deps.secrets.cachedValue(webhook.factoryId, link.tokenSecretName);
    if (token === undefined) {
      return {
        link,
        webhook,
        expected,
        client: null,
        clientProblem: `The team secret "${link.tokenSecretName}" has no value here; store the ${PROVIDER_NAMES[link.kind]} token in it (Secrets).`,
      };
    }
    return {
      link,
      webhook,
      expected,
      client: await this.deps.clients(link, token),
      clientProblem: null,
    };
  }

  get repo(): Store['links'] {
    return this.deps.store.links;
  }

  /** Before a link is saved: the hook exists and the token can read it, or the provider's answer. */
  async verify(link: LinkRecord, webhook: WebhookRecord): Promise<void> {
    const token = this.deps.secrets.cachedValue(webhook.factoryId, link.tokenSecretName);
    if (token === undefined) {
      throw new ProviderError(
        `tokenSecretName: the team secret "${link.tokenSecretName}" has no value here; store the ${PROVIDER_NAMES[link.kind]} token in it first (Secrets).`,
        null,
      );
    }
    await (await this.deps.clients(link, token)).readHook();
  }

  /** Reads the provider's hook and saves what it says. */
  check(uid: string): Promise<LinkRecord | null> {
    return this.serially(uid, async () => {
      const parts = await this.parts(uid);
      if (!parts) return null;
      return this.checkWith(parts);
    });
  }

  private async checkWith(parts: NonNullable<Awaited<ReturnType<LinkKeeper['parts']>>>) {
    const { link, client, expected } = parts;
    let check: LinkCheck;
    if (!client) {
      check = checkFrom('', null, parts.clientProblem, expected, this.deps.now());
    } else {
      try {
        check = checkFrom(
          client.describe,
          await client.readHook(),
          null,
          expected,
          this.deps.now(),
        );
      } catch (error) {
        check = checkFrom(client.describe, null, sentence(error), expected, this.deps.now());
      }
    }
    await this.deps.store.links.saveCheck(link.webhookUid, check);
    this.deps.onCheck?.(link.webhookUid, check, link.check);
    this.deps.events.emit({ type: 'changed', resource: 'webhooks' });
    return { ...link, check };
  }

  /**
   * Points the provider's hook at this webhook's ingress URL when it holds another (never at a
   * loopback or private address), enables a hook the provider disabled, then checks again.
   */
  keepPointed(uid: string): Promise<LinkRecord | null> {
    return this.serially(uid, async () => {
      const parts = await this.parts(uid);
      if (!parts) return null;
      const { link, client, expected } = parts;
      if (client && link.keepPointed && !isUnreachableFromInternet(expected.url)) {
        try {
          const hook = await client.readHook();
          // A hook a person set inactive is theirs: reported by the check, never changed.
          const personOff = !hook.active && !hook.disabledByProvider;
          if (!personOff && hook.url !== expected.url) {
            await client.setUrl(expected.url);
            this.deps.log.info(`[links] ${client.describe} now sends to ${expected.shownUrl}`);
          }
          if (hook.disabledByProvider) {
            await client.enable();
            this.deps.log.info(`[links] ${client.describe} enabled again`);
          }
        } catch (error) {
          this.deps.log.warn(`[links] ${sentence(error)}`);
        }
      }
      return this.checkWith(parts);
    });
  }

  /** One recovery of one link (queued behind any running here; skipped if another relay runs it). */
  recover(
    uid: string,
    options: { since?: number; dryRun?: boolean },
  ): Promise<{ link: LinkRecord; items: RecoveredItem[] } | null> {
    return this.serially(uid, async () => {
      const parts = await this.parts(uid);
      if (!parts) return null;
      const { link, client } = parts;
      if (!client) {
        const recovery = {
          at: new Date(this.deps.now()).toISOString(),
          since: new Date(this.deps.now() - RECOVERY_WINDOW_MS[link.kind]).toISOString(),
          asked: 0,
          redelivered: 0,
          alreadyHere: 0,
          failed: 0,
          errors: [parts.clientProblem ?? ''],
        };
        return { link: { ...link, recovery }, items: [] };
      }
      const outcome = await this.deps.store.exclusively(`link-recovery:${uid}`, () =>
        recoverLink({
          link,
          client,
          links: this.deps.store.links,
          now: this.deps.now,
          since: options.since,
          dryRun: options.dryRun ?? false,
          onClaimed: (identity) => {
            const waiting = this.awaited.get(uid) ?? new Set<string>();
            this.awaited.set(uid, waiting.add(identity));
          },
        }),
      );
      if (!outcome.ran) {
        // Another relay on this database recovers this link now: its answer is the one to show.
        return { link: (await this.deps.store.links.get(uid)) ?? link, items: [] };
      }
      const { recovery, items, recoveredThrough } = outcome.value;
      if (options.dryRun) return { link: { ...link, recovery }, items };
      await this.deps.store.links.saveRecovery(uid, recovery, recoveredThrough);
      if (recovery.asked > 0) {
        this.deps.log.info(
          `[links] asked ${PROVIDER_NAMES[link.kind]} for ${recovery.asked} failed deliveries to webhook ${parts.webhook.name} (${uid})`,
        );
        this.deps.events.emit({ type: 'recovered', webhookUid: uid, asked: recovery.asked });
      }
      this.deps.onRecovered?.(link, recovery.redelivered);
      this.deps.events.emit({ type: 'changed', resource: 'webhooks' });
      return { link: { ...link, recovery, recoveredThrough }, items };
    });
  }

  /** The link as the API shows it, with how many of the last recovery's asks have arrived. */
  async json(link: LinkRecord): Promise<Link> {
    const recovery = link.recovery
      ? {
          ...link.recovery,
          arrived: await this.deps.store.links.arrivedSince(
            Date.parse(link.recovery.at),
            link.webhookUid,
          ),
        }
      : null;
    return {
      kind: link.kind,
      target: link.target,
      tokenSecretName: link.tokenSecretName,
      apiBaseUrl: link.apiBaseUrl,
      keepPointed: link.keepPointed,
      recover: link.recover,
      check: link.check,
      recovery,
    };
  }
}

function sentence(error: unknown): string {
  return error instanceof ProviderError ? error.message : describeError(error);
}
