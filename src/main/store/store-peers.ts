import type { RunRecord } from './runs.js';

/** What one relay changed that the others keep in memory (the contract's `changed` resources). */
export type SharedResource =
  'webhooks' | 'automations' | 'secrets' | 'settings' | 'tokens' | 'alarms';

/** Rows a relay wrote that other relays' UIs show live: ids only, read from the store. */
export type PeerTopic = 'deliveries' | 'runs' | 'attempts' | 'run-output';

/**
 * The other relays on the same store. One SQLite file has one relay, so there it has none
 * (`soloPeers`); on PostgreSQL, every relay on the database (notifications, with polling behind).
 */
export interface StorePeers {
  /** Tells the other relays that these rows of `topic` were written (soon, batched). Never throws. */
  publish(topic: PeerTopic, ids: readonly string[]): void;
  /** Ids another relay wrote, or null after a gap (notifications may have been missed: re-read). */
  subscribe(topic: PeerTopic, handler: (ids: readonly string[] | null) => void): () => void;
  /**
   * Tells the other relays that `resource` changed. With `wait`, resolves once every live relay
   * has reloaded it; answers the ids of live relays that did not within the time allowed.
   */
  announce(resource: SharedResource, wait: boolean): Promise<string[]>;
  /** What this relay reloads when another announces a change (and at every resync). */
  onChange(handler: (resource: SharedResource) => Promise<void>): void;
  /** Another relay took over a run this one was executing (its lease ended): stop executing it. */
  onRunLost(handler: (runId: string) => void): void;
  /**
   * How this relay words (and acts on) a run it finds left running by a relay that is gone, when
   * the store ends such runs while relays run (PostgreSQL: once their lease ends).
   */
  reapRunsWith(reasonOf: (run: RunRecord) => string): void;
}

/** A relay alone on its store: nothing to tell, nothing to hear. */
export const soloPeers: StorePeers = {
  publish: () => undefined,
  subscribe: () => () => undefined,
  announce: () => Promise.resolve([]),
  onChange: () => undefined,
  onRunLost: () => undefined,
  // One relay per file: what it left running is ended when it starts again (RunDispatcher.start).
  reapRunsWith: () => undefined,
};
