import { RETENTION_MIN_DAYS, RETENTION_MIN_PER_WEBHOOK } from '../../shared/contract/relay.js';
import { tunnelChoiceSchema, type TunnelChoice } from '../../shared/contract/tunnel.js';
import type { SecretBackend } from '../secrets/choose-store.js';
import type { SettingsRepository } from '../store/settings.js';
import { SerialQueue } from './serial-queue.js';

const KEYS = [
  'publicUrl',
  'secretBackend',
  'retentionDays',
  'retentionMinPerWebhook',
  'tunnel',
  'desktopNotifications',
  'openAtLogin',
] as const;
type Key = (typeof KEYS)[number];

/**
 * Relay-wide settings with their defaults; retention can only be raised above the seed's floor.
 * Held in memory (read on every ingress URL shown, and by retention): loaded at start, written
 * through on every change; `reload()` re-reads them when another process changed them.
 */
export class RelaySettings {
  /** The ingress listener's own address, known once it listens. */
  listenerBaseUrl = 'http://127.0.0.1:8787';
  /** This relay's own tunnel URL (never stored: each replica runs its own tunnel or none). */
  tunnelUrl: string | null = null;
  private values = new Map<Key, unknown>();
  /**
   * Reloads and writes take turns: a reload that read a key before a write here would otherwise
   * put the older value back (retention pruning by the days it was just raised from).
   */
  private readonly turns = new SerialQueue();

  private constructor(private readonly repo: SettingsRepository) {}

  static async load(repo: SettingsRepository): Promise<RelaySettings> {
    const settings = new RelaySettings(repo);
    await settings.reload();
    return settings;
  }

  reload(): Promise<void> {
    return this.turns.run(async () => {
      const values = new Map<Key, unknown>();
      for (const key of KEYS) values.set(key, await this.repo.get(key));
      this.values = values;
    });
  }

  private write(key: Key, value: unknown): Promise<void> {
    return this.turns.run(async () => {
      await this.repo.set(key, value);
      this.values.set(key, value ?? undefined);
    });
  }

  get publicUrl(): string | null {
    const value = this.values.get('publicUrl');
    return typeof value === 'string' ? value : null;
  }

  setPublicUrl(value: string | null): Promise<void> {
    return this.write('publicUrl', value);
  }

  /** Where this data dir's secret values live (kept so a restart does not switch stores). */
  get secretBackend(): SecretBackend | undefined {
    const value = this.values.get('secretBackend');
    return value === 'keychain' || value === 'file' ? value : undefined;
  }

  setSecretBackend(value: SecretBackend | undefined): Promise<void> {
    return this.write('secretBackend', value);
  }

  /** The `base_url` of every ingress URL shown: a tunnel's URL wins over `--public-url`. */
  get ingressBaseUrl(): string {
    return this.tunnelUrl ?? this.publicUrl ?? this.listenerBaseUrl;
  }

  get retentionDays(): number {
    return Math.max(
      RETENTION_MIN_DAYS,
      Number(this.values.get('retentionDays') ?? RETENTION_MIN_DAYS),
    );
  }

  setRetentionDays(days: number): Promise<void> {
    return this.write('retentionDays', Math.max(RETENTION_MIN_DAYS, days));
  }

  get retentionMinPerWebhook(): number {
    return Math.max(
      RETENTION_MIN_PER_WEBHOOK,
      Number(this.values.get('retentionMinPerWebhook') ?? RETENTION_MIN_PER_WEBHOOK),
    );
  }

  setRetentionMinPerWebhook(count: number): Promise<void> {
    return this.write('retentionMinPerWebhook', Math.max(RETENTION_MIN_PER_WEBHOOK, count));
  }

  /**
   * Whether a factory's `command` runs get an MCP token (§21). Read from the store each time, not
   * held: another relay of the store may have changed it, and it is read once per run.
   */
  async mcpForRuns(factoryId: string): Promise<boolean> {
    return (await this.repo.get(`mcpForRuns:${factoryId}`)) === true;
  }

  setMcpForRuns(factoryId: string, on: boolean): Promise<void> {
    return this.repo.set(`mcpForRuns:${factoryId}`, on ? true : null);
  }

  /** The tunnel chosen in Settings (or by `--tunnel` on SQLite); null: none. */
  get tunnel(): TunnelChoice | null {
    const parsed = tunnelChoiceSchema.safeParse(this.values.get('tunnel'));
    return parsed.success ? parsed.data : null;
  }

  setTunnel(value: TunnelChoice | null): Promise<void> {
    return this.write('tunnel', value);
  }

  /** Desktop notifications (§20): on unless switched off. */
  get desktopNotifications(): boolean {
    return this.values.get('desktopNotifications') !== false;
  }

  setDesktopNotifications(on: boolean): Promise<void> {
    return this.write('desktopNotifications', on);
  }

  /** Open the desktop app at login: off unless switched on. */
  get openAtLogin(): boolean {
    return this.values.get('openAtLogin') === true;
  }

  setOpenAtLogin(on: boolean): Promise<void> {
    return this.write('openAtLogin', on);
  }

  /** Ingress URL of a webhook; a URL token shows as `{token}` unless this is the one-time reveal. */
  ingressUrl(webhook: { uid: string; authMode: string }, revealedToken?: string): string {
    const base = `${this.ingressBaseUrl}/webhooks/w/${webhook.uid}`;
    return webhook.authMode === 'url_token' ? `${base}/${revealedToken ?? '{token}'}` : base;
  }
}

/** The webhooks whose ingress URL carries their secret (URL token): rotating it moves the URL. */
export function urlTokenUids(webhooks: ReadonlyArray<{ uid: string; authMode: string }>): string[] {
  return webhooks.filter((w) => w.authMode === 'url_token').map((w) => w.uid);
}
