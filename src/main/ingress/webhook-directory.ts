import { SerialQueue } from '../service/serial-queue.js';
import type { WebhookRecord, WebhooksRepository } from '../store/webhooks.js';

/**
 * Live webhooks by UID, in memory for the ingress hot path. Every write through the management
 * service refreshes the entry before it returns, so a disable or delete is a 404 at once.
 */
export class WebhookDirectory {
  private byUid = new Map<string, WebhookRecord>();
  /**
   * Reads take turns: a whole reload that read the rows before a refresh here would otherwise put
   * back what the refresh changed (a created webhook 404, a disabled one accepting).
   */
  private readonly turns = new SerialQueue();

  private constructor(private readonly repo: WebhooksRepository) {}

  static async load(repo: WebhooksRepository): Promise<WebhookDirectory> {
    const directory = new WebhookDirectory(repo);
    await directory.reloadAll();
    return directory;
  }

  get(uid: string): WebhookRecord | undefined {
    return this.byUid.get(uid);
  }

  refresh(uid: string): Promise<void> {
    return this.turns.run(async () => {
      const record = await this.repo.get(uid);
      if (record && record.deletedAt === null) this.byUid.set(uid, record);
      else this.byUid.delete(uid);
    });
  }

  reloadAll(): Promise<void> {
    return this.turns.run(async () => {
      const live = await this.repo.live();
      this.byUid = new Map(live.map((w) => [w.uid, w]));
    });
  }
}
