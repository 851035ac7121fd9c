import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import type { EventBus } from '../events.js';

const HEARTBEAT_MS = 20_000;

/** Server-sent events: the UI's live delivery log, without polling the database. */
export class EventStreams {
  private readonly open = new Set<PassThrough>();

  constructor(private readonly events: EventBus) {}

  /** `allowed` is asked before each write, in event order; once it says no, the stream ends. */
  attach(ctx: Context, allowed: () => Promise<boolean>): void {
    const stream = new PassThrough();
    ctx.set({
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
    });
    ctx.status = 200;
    ctx.body = stream;
    stream.write(': connected\n\n');
    let written = Promise.resolve();
    const send = (text: string): void => {
      written = written.then(async () => {
        if (closed) return;
        const still = await allowed().catch(() => false);
        if (still && !closed) stream.write(text);
        else close();
      });
    };
    const unsubscribe = this.events.subscribe((event) => {
      send(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    });
    const heartbeat = setInterval(() => send(': keep-alive\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    let closed = false;
    const close = (): void => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      this.open.delete(stream);
      stream.end();
    };
    ctx.req.on('close', close);
    this.open.add(stream);
  }

  /** Ends every stream so the listener can close during shutdown. */
  closeAll(): void {
    for (const stream of this.open) stream.end();
    this.open.clear();
  }
}
