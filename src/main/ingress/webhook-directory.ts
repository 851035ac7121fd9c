import type { WebhookRecord, WebhooksRepository } from '../store/webhooks-repo.js';

/**
 * Live webhooks by UID, in memory for the ingress hot path. Every write through the management
 * service refreshes the entry before it returns, so a disable or delete is a 404 at once.
 */
export class WebhookDirectory {
  private byUid = new Map<string, WebhookRecord>();

  constructor(private readonly repo: WebhooksRepository) {
    this.reloadAll();
  }

  get(uid: string): WebhookRecord | undefined {
    return this.byUid.get(uid);
  }

  refresh(uid: string): void {
    const record = this.repo.get(uid);
    if (record && record.deletedAt === null) this.byUid.set(uid, record);
    else this.byUid.delete(uid);
  }

  reloadAll(): void {
    this.byUid = new Map(this.repo.live().map((w) => [w.uid, w]));
  }
}
