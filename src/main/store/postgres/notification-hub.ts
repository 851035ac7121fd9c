import pg from 'pg';
import { z } from 'zod';
import type { PgPool } from './pool.js';

/** The one channel Hookport listens on; topics travel inside the payload. */
export const NOTIFY_CHANNEL = 'hookport';
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
export const MAX_PAYLOAD_BYTES = 7_999;

/**
 * What a subscriber hears: some ids changed (a hint: read them from the database), or resync:
 * read whatever you need again, because notifications may have been missed (after a reconnect)
 * or simply because it is time to poll (notifications are a hint, the database is the truth).
 */
export type HubSignal = { kind: 'ids'; ids: string[]; origin: string } | { kind: 'resync' };

export interface NotificationHubOptions {
  /** Written into each notification so that a replica can tell its own apart. */
  replicaId: string;
  /** How often every subscriber is told to resync, whatever arrived. */
  pollIntervalMs?: number;
  /** A notification could not be read, or the listening connection failed; never thrown. */
  onError?: (error: unknown) => void;
}

const TOPIC = /^[a-z][a-z-]{0,31}$/;
const payloadSchema = z.object({ o: z.string(), t: z.string(), i: z.array(z.string()) });
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/**
 * LISTEN/NOTIFY between replicas: ids only, in payloads under PostgreSQL's 8000-byte limit, on
 * one dedicated connection (LISTEN needs a session of its own: never behind a transaction-mode
 * pooler). Notifications are sent from the pool after a commit, never inside the accept
 * transaction: a NOTIFY takes a database-wide lock at commit, which would serialize every
 * replica's group commit. The listening connection reconnects on its own, and subscribers are
 * told to resync after each reconnect and every `pollIntervalMs`.
 */
export class NotificationHub {
  private readonly handlers = new Map<string, Set<(signal: HubSignal) => void>>();
  private readonly pollIntervalMs: number;
  private readonly onError: (error: unknown) => void;
  private client: pg.Client | null = null;
  private poller: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private reconnectDelay = RECONNECT_MIN_MS;
  private stopped = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly pool: PgPool,
    private readonly options: NotificationHubOptions,
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 5_000;
    this.onError = options.onError ?? (() => undefined);
  }

  /** Connects and listens; rejects if the database cannot be reached now. */
  async start(): Promise<void> {
    await this.listen();
    this.poller = setInterval(() => this.resyncAll(), this.pollIntervalMs);
    this.poller.unref();
  }

  subscribe(topic: string, handler: (signal: HubSignal) => void): () => void {
    checkTopic(topic);
    let set = this.handlers.get(topic);
    if (!set) this.handlers.set(topic, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  /** Tells every replica (this one too) that these ids of `topic` changed. One round trip. */
  async publish(topic: string, ids: readonly string[]): Promise<void> {
    checkTopic(topic);
    const payloads = chunkPayloads(this.options.replicaId, topic, ids);
    if (payloads.length === 0) return;
    await this.pool.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p', [
      NOTIFY_CHANNEL,
      payloads,
    ]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.poller) clearInterval(this.poller);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: `hookport listen ${this.options.replicaId}`.slice(0, 63),
      keepAlive: true,
    });
    client.on('notification', (message) => this.receive(message));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    await client.connect();
    try {
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    this.reconnectDelay = RECONNECT_MIN_MS;
  }

  private lost(client: pg.Client, error: Error | null): void {
    if (this.stopped || this.client !== client) return;
    this.client = null;
    if (error) this.onError(error);
    client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.listen().then(
        // Whatever was notified while the connection was down is gone: everyone reads again.
        () => this.resyncAll(),
        (error: unknown) => {
          this.onError(error);
          this.reconnectDelay = Math.min(RECONNECT_MAX_MS, this.reconnectDelay * 2);
          this.scheduleReconnect();
        },
      );
    }, this.reconnectDelay);
    this.reconnectTimer.unref();
  }

  private receive(message: pg.Notification): void {
    if (message.channel !== NOTIFY_CHANNEL) return;
    let parsed: z.infer<typeof payloadSchema>;
    try {
      parsed = payloadSchema.parse(JSON.parse(message.payload ?? ''));
    } catch {
      this.onError(
        new Error(`ignored a notification on "${NOTIFY_CHANNEL}" that is not Hookport's`),
      );
      return;
    }
    this.dispatch(parsed.t, { kind: 'ids', ids: parsed.i, origin: parsed.o });
  }

  private resyncAll(): void {
    for (const topic of this.handlers.keys()) this.dispatch(topic, { kind: 'resync' });
  }

  private dispatch(topic: string, signal: HubSignal): void {
    for (const handler of this.handlers.get(topic) ?? []) {
      try {
        handler(signal);
      } catch (error) {
        this.onError(error);
      }
    }
  }
}

function checkTopic(topic: string): void {
  if (!TOPIC.test(topic)) throw new Error(`"${topic}" is not a topic name (a-z and -, ≤ 32).`);
}

/** As few payloads as fit the ids, each under the limit; an id that cannot fit alone throws. */
export function chunkPayloads(origin: string, topic: string, ids: readonly string[]): string[] {
  const encode = (chunk: readonly string[]): string =>
    JSON.stringify({ o: origin, t: topic, i: chunk });
  const overhead = Buffer.byteLength(encode([]));
  const payloads: string[] = [];
  let chunk: string[] = [];
  let bytes = overhead;
  for (const id of ids) {
    const size = Buffer.byteLength(JSON.stringify(id));
    if (overhead + size > MAX_PAYLOAD_BYTES) {
      throw new Error(`An id of ${size} bytes does not fit in a notification.`);
    }
    if (bytes + size + (chunk.length > 0 ? 1 : 0) > MAX_PAYLOAD_BYTES) {
      payloads.push(encode(chunk));
      chunk = [];
      bytes = overhead;
    }
    bytes += size + (chunk.length > 0 ? 1 : 0);
    chunk.push(id);
  }
  if (chunk.length > 0) payloads.push(encode(chunk));
  return payloads;
}
