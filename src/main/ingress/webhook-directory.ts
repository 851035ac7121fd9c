import type { WebhookRecord, WebhooksRepository } from '../store/webhooks.js';

/**
 * Live webhooks by UID, in memory for the ingress hot path. Every write through the management
 * service refreshes the entry before it returns, so a disable or delete is a 404 at once.
 */
export class WebhookDirectory {
  private byUid = new Map<string, WebhookRecord>();

  private constructor(private readonly repo: WebhooksRepository) {}

  static async load(repo: WebhooksRepository): Promise<WebhookDirectory> {
    const directory = new WebhookDirectory(repo);
    await directory.reloadAll();
    return directory;
  }

  get(uid: string): WebhookRecord | undefined {
    return this.byUid.get(uid);
  }

  async refresh(uid: string): Promise<void> {
    const record = await this.repo.get(uid);
    if (record && record.deletedAt === null) this.byUid.set(uid, record);
    else this.byUid.delete(uid);
  }

  async reloadAll(): Promise<void> {
    const live = await this.repo.live();
    this.byUid = new Map(live.map((w) => [w.uid, w]));
  }
}
