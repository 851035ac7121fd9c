import type { NotificationHub, HubSignal } from './notification-hub.js';
import type { PgPool } from './pool.js';

/** What one replica changed that others keep in memory (the contract's `changed` resources). */
export type SharedResource =
  'webhooks' | 'automations' | 'secrets' | 'settings' | 'tokens' | 'alarms';

const RESOURCES: readonly SharedResource[] = [
  'webhooks',
  'automations',
  'secrets',
  'settings',
  'tokens',
  'alarms',
];
const TOPIC = 'changed';
const HEARTBEAT_MS = 2_000;
/** A replica silent for three heartbeats is gone (SIGKILLed, or cut off): nobody waits for it. */
const LIVE_MS = 3 * HEARTBEAT_MS;
const ACK_POLL_MS = 20;
const ACK_TIMEOUT_MS = 10_000;

export interface ReplicaRegistryOptions {
  replicaId: string;
  /** A failed heartbeat, acknowledgement or reload; never thrown. */
  onError: (error: unknown) => void;
  /** How long `announce` waits for the others at most (10 s). */
  ackTimeoutMs?: number;
}

/**
 * Which replicas are alive, and how far each has applied the changes announced by the others.
 * Every announcement takes the next number of one sequence; a replica applies it (reloads what
 * changed into its caches) and records the number as applied. `announce(…, {wait: true})`
 * resolves once every live replica has: a rotated secret's old value then fails everywhere.
 * A replica whose notifications are lost still reloads everything at each resync poll and
 * records the newest number it saw before reloading.
 */
export class ReplicaRegistry {
  private readonly handlers: Array<(resource: SharedResource) => Promise<void>> = [];
  private heartbeat: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  /** One reload at a time, in order of arrival. */
  private applying: Promise<void> = Promise.resolve();

  constructor(
    private readonly pool: PgPool,
    private readonly hub: NotificationHub,
    private readonly options: ReplicaRegistryOptions,
  ) {}

  get replicaId(): string {
    return this.options.replicaId;
  }

  /** What this replica reloads when another announces a change to `resource`. */
  onChange(handler: (resource: SharedResource) => Promise<void>): void {
    this.handlers.push(handler);
  }

  async start(startedAt: number): Promise<void> {
    // Changes announced before this replica existed are already in what it loads at start.
    await this.pool.query(
      `INSERT INTO replicas (id, started_at, applied_seq)
       SELECT $1, $2, CASE WHEN is_called THEN last_value ELSE 0 END FROM hookport_change_seq
       ON CONFLICT (id) DO UPDATE SET seen_at = now()`,
      [this.replicaId, startedAt],
    );
    this.unsubscribe = this.hub.subscribe(TOPIC, (signal) => this.received(signal));
    this.heartbeat = setInterval(() => {
      this.pool
        .query('UPDATE replicas SET seen_at = now() WHERE id = $1', [this.replicaId])
        .catch(this.options.onError);
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /**
   * Tells the other replicas that `resource` changed. With `wait`, resolves once every live
   * replica has reloaded it, or after `ackTimeoutMs` with the ids of those that had not (the caller says
   * so; they reload at their next resync poll at the latest).
   */
  async announce(resource: SharedResource, wait: boolean): Promise<string[]> {
    const { rows } = await this.pool.query<{ seq: number }>(
      "SELECT nextval('hookport_change_seq')::int8 AS seq",
    );
    const seq = rows[0]!.seq;
    await this.hub.publish(TOPIC, [`${resource}:${seq}`]);
    if (!wait) return [];
    const deadline = Date.now() + (this.options.ackTimeoutMs ?? ACK_TIMEOUT_MS);
    for (;;) {
      const lagging = await this.lagging(seq);
      if (lagging.length === 0 || Date.now() >= deadline) return lagging;
      await new Promise((resolve) => setTimeout(resolve, ACK_POLL_MS));
    }
  }

  /** Live replicas but this one, by id. */
  async live(): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM replicas WHERE id <> $1 AND seen_at > now() - make_interval(secs => $2)
       ORDER BY id`,
      [this.replicaId, LIVE_MS / 1000],
    );
    return rows.map((r) => r.id);
  }

  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.unsubscribe?.();
    await this.applying;
    await this.pool.query('DELETE FROM replicas WHERE id = $1', [this.replicaId]);
  }

  private async lagging(seq: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM replicas
       WHERE id <> $1 AND seen_at > now() - make_interval(secs => $2) AND applied_seq < $3`,
      [this.replicaId, LIVE_MS / 1000, seq],
    );
    return rows.map((r) => r.id);
  }

  private received(signal: HubSignal): void {
    this.applying = this.applying
      .then(() => this.apply(signal))
      .catch((error: unknown) => this.options.onError(error));
  }

  private async apply(signal: HubSignal): Promise<void> {
    let applied = 0;
    const resources = new Set<SharedResource>();
    if (signal.kind === 'resync') {
      const { rows } = await this.pool.query<{ seq: number }>(
        'SELECT (CASE WHEN is_called THEN last_value ELSE 0 END)::int8 AS seq FROM hookport_change_seq',
      );
      applied = rows[0]!.seq;
      for (const resource of RESOURCES) resources.add(resource);
    } else {
      for (const id of signal.ids) {
        const [resource, seq] = id.split(':');
        if (!RESOURCES.includes(resource as SharedResource)) continue;
        applied = Math.max(applied, Number(seq));
        // This replica made the change: its caches already hold it.
        if (signal.origin !== this.replicaId) resources.add(resource as SharedResource);
      }
    }
    for (const resource of resources) {
      for (const handler of this.handlers) await handler(resource);
    }
    if (applied > 0) {
      await this.pool.query(
        'UPDATE replicas SET applied_seq = GREATEST(applied_seq, $2), seen_at = now() WHERE id = $1',
        [this.replicaId, applied],
      );
    }
  }
}
