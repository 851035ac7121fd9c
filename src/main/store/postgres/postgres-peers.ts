import type { RunRecord } from '../runs.js';
import type { PeerTopic, SharedResource, StorePeers } from '../store-peers.js';
import type { NotificationHub } from './notification-hub.js';
import type { ReplicaRegistry } from './replica-registry.js';

/**
 * The other relays on one PostgreSQL database: rows written are published as ids (NOTIFY, sent
 * after the commit, from the pool), changes to cached resources go through the replica registry
 * (acknowledged), and the hub's resync polls stand behind both.
 */
export class PostgresPeers implements StorePeers {
  private readonly lostHandlers: Array<(runId: string) => void> = [];
  private reasonOf: ((run: RunRecord) => string) | null = null;
  private readonly pending = new Map<PeerTopic, Set<string>>();
  private flush: NodeJS.Immediate | null = null;
  private readonly localHandlers = new Map<PeerTopic, Set<(ids: readonly string[]) => void>>();

  constructor(
    private readonly hub: NotificationHub,
    private readonly registry: ReplicaRegistry,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Collected for the rest of the tick: one NOTIFY round trip per topic, however many ids. */
  publish(topic: PeerTopic, ids: readonly string[]): void {
    if (ids.length === 0) return;
    let pending = this.pending.get(topic);
    if (!pending) this.pending.set(topic, (pending = new Set()));
    for (const id of ids) pending.add(id);
    this.flush ??= setImmediate(() => {
      this.flush = null;
      for (const [name, set] of this.pending) this.hub.publish(name, [...set]).catch(this.onError);
      this.pending.clear();
    });
  }

  subscribe(topic: PeerTopic, handler: (ids: readonly string[] | null) => void): () => void {
    let local = this.localHandlers.get(topic);
    if (!local) this.localHandlers.set(topic, (local = new Set()));
    local.add(handler);
    const unsubscribe = this.hub.subscribe(topic, (signal) => {
      if (signal.kind === 'resync') return handler(null);
      // This relay's own rows are already in its UI.
      if (signal.origin !== this.registry.replicaId) handler(signal.ids);
    });
    return () => {
      local.delete(handler);
      unsubscribe();
    };
  }

  /** Rows the store itself wrote (not this relay's core): every relay hears of them, this one too. */
  publishToAll(topic: PeerTopic, ids: readonly string[]): void {
    if (ids.length === 0) return;
    for (const handler of this.localHandlers.get(topic) ?? []) handler(ids);
    this.publish(topic, ids);
  }

  announce(resource: SharedResource, wait: boolean): Promise<string[]> {
    return this.registry.announce(resource, wait);
  }

  onChange(handler: (resource: SharedResource) => Promise<void>): void {
    this.registry.onChange(handler);
  }

  onRunLost(handler: (runId: string) => void): void {
    this.lostHandlers.push(handler);
  }

  reapRunsWith(reasonOf: (run: RunRecord) => string): void {
    this.reasonOf = reasonOf;
  }

  /** Why the store's sweep ends a run whose lease ran out. */
  reapReason(run: RunRecord, otherwise: string): string {
    return this.reasonOf ? this.reasonOf(run) : otherwise;
  }

  /** The lease keeper's report: another relay interrupted a run this one still executes. */
  runLost(runId: string): void {
    for (const handler of this.lostHandlers) handler(runId);
  }
}
