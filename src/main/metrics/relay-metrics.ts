import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RefusalCounts } from '../ingress/refusal-tally.js';
import type { CommittedDelivery } from '../store/delivery-batch.js';
import type { MetricsReader } from '../store/metrics-queries.js';

export interface MetricSources {
  db: MetricsReader;
  refusals: { countsSinceStart(): RefusalCounts };
  /** Alarms raised now: one per webhook and kind. */
  alarms: () => Promise<ReadonlyArray<{ webhookUid: string; kind: string }>>;
  now: () => number;
  /** The event loop's watch (alarms/loop-delay.ts); absent, its gauges are not exported. */
  loopDelay?: { alarm: boolean; lastWindow: { p99Ms: number; maxMs: number } };
  /** The relay's tunnel is up (PRODUCT §18); absent: no tunnel runs here. */
  tunnelUp?: () => boolean;
}

export type RelayMetrics = ReturnType<typeof createRelayMetrics>;

/**
 * The relay's Prometheus metrics (PRODUCT.md §17), in a registry of its own. Deliveries are
 * counted as batches commit; everything else is read when /metrics is scraped, so nothing here
 * runs on a delivery's path before its answer.
 */
export function createRelayMetrics(sources: MetricSources) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'hookport_' });

  const deliveries = new Counter({
    name: 'hookport_deliveries_total',
    help: 'Log entries committed since the relay started, by webhook and label',
    labelNames: ['webhook_uid', 'label'] as const,
    registers: [registry],
  });
  new Counter({
    name: 'hookport_refusals_total',
    help: 'Requests refused without a log entry (404, 405, 429) since the relay started, by status',
    labelNames: ['status'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [status, n] of Object.entries(sources.refusals.countsSinceStart())) {
        this.inc({ status }, n);
      }
    },
  });
  const commits = new Histogram({
    name: 'hookport_accept_commit_duration_seconds',
    help: 'How long each accept transaction (a batch of deliveries, committed durably) took',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  new Gauge({
    name: 'hookport_runs',
    help: 'Runs in the database, by status and by the executor of their factory',
    labelNames: ['status', 'executor'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await sources.db.runsByStatusAndExecutor()) {
        this.set({ status: row.status, executor: row.executor }, row.n);
      }
    },
  });
  new Gauge({
    name: 'hookport_run_queue_depth',
    help: 'Runs queued and not yet started',
    registers: [registry],
    async collect() {
      this.set((await sources.db.queue()).depth);
    },
  });
  new Gauge({
    name: 'hookport_oldest_queued_run_age_seconds',
    help: 'How long the oldest queued run has waited (0 when none is queued)',
    registers: [registry],
    async collect() {
      const { oldest } = await sources.db.queue();
      this.set(oldest === null ? 0 : Math.max(0, (sources.now() - oldest) / 1000));
    },
  });
  new Gauge({
    name: 'hookport_webhook_alarm',
    help: 'A raised alarm: 1 per webhook and kind (quiet: no accepted delivery within its expected cadence; auth: its newest deliveries are all Rejected (auth))',
    labelNames: ['webhook_uid', 'kind'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const alarm of await sources.alarms()) {
        this.set({ webhook_uid: alarm.webhookUid, kind: alarm.kind }, 1);
      }
    },
  });
  new Gauge({
    name: 'hookport_webhook_info',
    help: 'Live webhooks by UID, with their names (join on webhook_uid)',
    labelNames: ['webhook_uid', 'name'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const webhook of await sources.db.liveWebhooks()) {
        this.set({ webhook_uid: webhook.uid, name: webhook.name }, 1);
      }
    },
  });
  new Gauge({
    name: 'hookport_tunnel_up',
    help: "1 while the relay's tunnel is up, 0 while it is starting, down or off",
    registers: [registry],
    collect() {
      this.set(sources.tunnelUp?.() ? 1 : 0);
    },
  });
  new Gauge({
    name: 'hookport_search_index_pending',
    help: 'Log entries waiting for the background search indexer',
    registers: [registry],
    async collect() {
      this.set(await sources.db.searchPending());
    },
  });

  const loop = sources.loopDelay;
  if (loop) {
    // Beside prom-client's nodejs_eventloop_lag_* (since the last scrape): the watch's windows.
    new Gauge({
      name: 'hookport_event_loop_delay_window_max_seconds',
      help: 'The longest the event loop (which answers senders) was held in the last 10 s window',
      registers: [registry],
      collect() {
        this.set(loop.lastWindow.maxMs / 1000);
      },
    });
    new Gauge({
      name: 'hookport_event_loop_alarm',
      help: "1 while the event loop's 99th percentile delay has stayed above 100 ms for 30 s",
      registers: [registry],
      collect() {
        this.set(loop.alarm ? 1 : 0);
      },
    });
  }

  return {
    /** Where other modules' metrics register (provider links). */
    registry,
    contentType: registry.contentType,
    text: (): Promise<string> => registry.metrics(),
    /** After each commit: count the entries it made durable. */
    countCommitted(committed: readonly CommittedDelivery[]): void {
      // Once per (webhook, label) in the batch: prom-client keys every inc by its labels.
      let run = 0;
      for (let i = 0; i < committed.length; i++) {
        const d = committed[i]!;
        const next = committed[i + 1];
        run++;
        if (next?.webhookUid === d.webhookUid && next.label === d.label) continue;
        deliveries.inc({ webhook_uid: d.webhookUid, label: d.label }, run);
        run = 0;
      }
    },
    observeCommit(seconds: number): void {
      commits.observe(seconds);
    },
  };
}
