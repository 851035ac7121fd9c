import { setTimeout as sleep } from 'node:timers/promises';
import { relayEventSchema } from '../../shared/contract/events.js';
import type { AdminClient } from './admin-client.js';

const RECONNECT_MS = 2_000;

/**
 * Wakes `hookport forward` when the relay announces an Accepted delivery of its webhook. Only a
 * hint: the forwarder reads what to send from the log, so a missed event costs a little delay
 * (it also looks every few seconds), never a delivery. Reconnects while the relay is away.
 */
export class DeliveryWakeups {
  private waiters = new Set<() => void>();
  /** An event came while nobody was waiting: the next wait returns at once. */
  private pending = false;

  constructor(
    private readonly client: AdminClient,
    private readonly webhookUid: string,
    private readonly signal: AbortSignal,
  ) {}

  /** Listens until the signal aborts; never rejects. */
  async listen(): Promise<void> {
    while (!this.signal.aborted) {
      try {
        const body = await this.client.events(this.signal);
        // Whatever arrived while the stream was down is in the log: look now.
        this.fire();
        await this.read(body);
      } catch {
        // Relay away or stream cut: try again shortly (the forwarder reports the relay itself).
      }
      await sleep(RECONNECT_MS, undefined, { signal: this.signal }).catch(() => undefined);
    }
  }

  /** Resolves on the next wake-up, after `ms`, or when stopped, whichever comes first. */
  wait(ms: number): Promise<void> {
    if (this.pending || this.signal.aborted) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.signal.removeEventListener('abort', done);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.signal.addEventListener('abort', done, { once: true });
      this.waiters.add(done);
    });
  }

  private fire(): void {
    if (this.waiters.size === 0) this.pending = true;
    for (const waiter of [...this.waiters]) waiter();
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    let buffered = '';
    const decoder = new TextDecoder();
    for await (const chunk of body) {
      buffered += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const message = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        this.onMessage(message);
      }
    }
  }

  private onMessage(message: string): void {
    const data = message
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => line.slice('data: '.length))
      .join('\n');
    if (data === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    const event = relayEventSchema.safeParse(parsed);
    if (
      event.success &&
      event.data.type === 'delivery' &&
      event.data.delivery.webhookUid === this.webhookUid &&
      event.data.delivery.label === 'Accepted'
    ) {
      this.fire();
    }
  }
}
