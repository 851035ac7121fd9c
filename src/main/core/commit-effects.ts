import type { AlarmMonitor } from '../alarms/monitor.js';
import type { EventBus } from '../events.js';
import type { LinkKeeper } from '../links/link-keeper.js';
import { describeError, type Logger } from '../log.js';
import type { RelayMetrics } from '../metrics/relay-metrics.js';
import type { RunDispatcher } from '../runs/dispatcher.js';
import { withReadSummaries } from '../service/read-summaries.js';
import { deliveryJson } from '../service/to-json.js';
import type { CommitHealth } from '../store/commit-health.js';
import type { CommittedDelivery } from '../store/delivery-batch.js';
import type { DeliveryWriterOptions } from '../store/delivery-writer.js';
import type { Store } from '../store/store.js';

export interface CommitEffectsDeps {
  store: Pick<Store, 'deliveries'>;
  storeHealth: CommitHealth;
  metrics: RelayMetrics;
  alarms: Pick<AlarmMonitor, 'onCommitted'>;
  links: Pick<LinkKeeper, 'arrived'>;
  dispatcher: Pick<RunDispatcher, 'wake'>;
  events: EventBus;
  log: Logger;
}

/** What follows a delivery batch's commit (or its failure): health, metrics, alarms, live entries, runs. */
export function commitEffects(
  deps: CommitEffectsDeps,
): Pick<DeliveryWriterOptions, 'onCommit' | 'onError'> {
  const liveEntry = liveEntries(deps);
  return {
    onError: (error) => {
      deps.storeHealth.commitFailed(error);
      deps.log.error(`[store] a delivery batch failed to commit: ${describeError(error)}`);
    },
    onCommit: (committed) => {
      deps.storeHealth.committed();
      deps.metrics.countCommitted(committed);
      deps.alarms.onCommitted(committed);
      const arrived = (d: CommittedDelivery): boolean =>
        deps.links.arrived(d.webhookUid, d.identity, d.label === 'Accepted');
      // Nobody listening (a relay under `serve` with no UI or stream open): no entry is built,
      // and no payload is read back on the thread that answers senders (issue 25), nor an
      // object made per delivery to carry one.
      if (deps.events.listened) liveEntry(committed.map((d) => ({ d, recovered: arrived(d) })));
      else for (const d of committed) arrived(d);
      if (committed.some((d) => d.runIds.length > 0)) deps.dispatcher.wake();
    },
  };
}

type Marked = { d: CommittedDelivery; recovered: boolean };

/**
 * A live entry reads as the list will: a summary the accept path did not derive (a token
 * webhook nothing parses) is derived from the payload first, in commit order.
 */
function liveEntries({ store, events }: CommitEffectsDeps): (marked: Marked[]) => void {
  let last: Promise<void> = Promise.resolve();
  return (marked) => {
    last = last.then(async () => {
      for (const { d, recovered } of marked) {
        const [read] = await withReadSummaries({ deliveries: store.deliveries }, null, [d]).catch(
          () => [d],
        );
        const delivery = deliveryJson(read ?? d);
        events.emit({
          type: 'delivery',
          delivery: recovered ? { ...delivery, recovered } : delivery,
        });
      }
    });
  };
}
