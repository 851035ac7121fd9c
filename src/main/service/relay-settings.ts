import { RETENTION_MIN_DAYS, RETENTION_MIN_PER_WEBHOOK } from '../../shared/contract/relay.js';
import type { SettingsRepository } from '../store/settings-repo.js';

/** Relay-wide settings with their defaults; retention can only be raised above the seed's floor. */
export class RelaySettings {
  /** The ingress listener's own address, known once it listens. */
  listenerBaseUrl = 'http://127.0.0.1:8787';

  constructor(private readonly repo: SettingsRepository) {}

  get publicUrl(): string | null {
    const value = this.repo.get('publicUrl');
    return typeof value === 'string' ? value : null;
  }

  set publicUrl(value: string | null) {
    this.repo.set('publicUrl', value);
  }

  /** Where this data dir's secret values live (kept so a restart does not switch stores). */
  get secretBackend(): 'keychain' | 'file' | undefined {
    const value = this.repo.get('secretBackend');
    return value === 'keychain' || value === 'file' ? value : undefined;
  }

  set secretBackend(value: 'keychain' | 'file' | undefined) {
    this.repo.set('secretBackend', value);
  }

  /** The `base_url` of every ingress URL shown. */
  get ingressBaseUrl(): string {
    return this.publicUrl ?? this.listenerBaseUrl;
  }

  get retentionDays(): number {
    return Math.max(
      RETENTION_MIN_DAYS,
      Number(this.repo.get('retentionDays') ?? RETENTION_MIN_DAYS),
    );
  }

  set retentionDays(days: number) {
    this.repo.set('retentionDays', Math.max(RETENTION_MIN_DAYS, days));
  }

  get retentionMinPerWebhook(): number {
    return Math.max(
      RETENTION_MIN_PER_WEBHOOK,
      Number(this.repo.get('retentionMinPerWebhook') ?? RETENTION_MIN_PER_WEBHOOK),
    );
  }

  set retentionMinPerWebhook(count: number) {
    this.repo.set('retentionMinPerWebhook', Math.max(RETENTION_MIN_PER_WEBHOOK, count));
  }

  /** Ingress URL of a webhook; a URL token shows as `{token}` unless this is the one-time reveal. */
  ingressUrl(webhook: { uid: string; authMode: string }, revealedToken?: string): string {
    const base = `${this.ingressBaseUrl}/webhooks/w/${webhook.uid}`;
    return webhook.authMode === 'url_token' ? `${base}/${revealedToken ?? '{token}'}` : base;
  }
}
