import type { LinkCheck } from '../../shared/contract/links.js';
import type { LinkRecord } from '../store/links.js';
import { linkAlarmMessage } from './words.js';

/** A linked webhook whose provider check found a problem: an alarm while it lasts (PRODUCT §19). */
export interface LinkAlarm {
  webhookUid: string;
  since: number;
  message: string;
}

/**
 * Link alarms are the links' own last checks (kept with each link), so a restart neither repeats
 * nor forgets one; only when an episode began is remembered here, from the first failing check
 * this relay saw.
 */
export class LinkAlarms {
  private readonly failingSince = new Map<string, number>();

  constructor(private readonly links: () => Promise<LinkRecord[]>) {}

  async active(): Promise<LinkAlarm[]> {
    const out: LinkAlarm[] = [];
    for (const link of await this.links()) {
      if (!link.check || link.check.ok) continue;
      out.push({
        webhookUid: link.webhookUid,
        since: this.failingSince.get(link.webhookUid) ?? Date.parse(link.check.at),
        message: linkAlarmMessage(link.kind, link.check.problems),
      });
    }
    return out;
  }

  /**
   * What a new check means for the alarm: raised (it failed, the one before did not), ended (it
   * passed, the one before did not), or nothing new.
   */
  follow(
    webhookUid: string,
    check: LinkCheck,
    previous: LinkCheck | null,
  ): { event: 'alarm' | 'recovery'; since: number } | null {
    const at = Date.parse(check.at);
    const wasFailing = previous !== null && !previous.ok;
    if (!check.ok && !wasFailing) {
      this.failingSince.set(webhookUid, at);
      return { event: 'alarm', since: at };
    }
    if (check.ok && wasFailing) {
      const since = this.failingSince.get(webhookUid) ?? Date.parse(previous.at);
      this.failingSince.delete(webhookUid);
      return { event: 'recovery', since };
    }
    return null;
  }
}
