import type { TunnelStatus } from '../../shared/contract/relay.js';
import type { TunnelChoice, TunnelTest } from '../../shared/contract/tunnel.js';
import { describeError, type Logger } from '../log.js';
import { TUNNEL_OFF, type Reachability } from '../reachability.js';
import { tunnelKind } from './kinds.js';
import { TunnelProcessRecord } from './process-record.js';
import type { RunningTunnel, TunnelContext, TunnelKind } from './tunnel.js';
import { TunnelError } from './tunnel.js';

/** Restarts wait 1 s, doubling to 60 s; a tunnel up for a minute starts the count again. */
export const BACKOFF_FIRST_MS = 1_000;
export const BACKOFF_MAX_MS = 60_000;
const STABLE_MS = 60_000;

export interface TunnelManagerDeps {
  reachability: Reachability;
  dataDir: string;
  secret: (name: string) => string | undefined;
  publicUrl(): string | null;
  log: Logger;
  now: () => number;
  env?: NodeJS.ProcessEnv;
  /** How often a daemon-served tunnel (tailscale) is looked at (15 s). */
  pollMs?: number;
  backoffFirstMs?: number;
}

/** An error in words, with the fix where the kind knows it. */
const words = (error: unknown): string =>
  error instanceof TunnelError ? error.message : describeError(error);

/**
 * Runs the relay's one tunnel (PRODUCT §18): starts it once the ingress listens, reports every
 * state to Reachability, restarts it with backoff when it stops, and never lets its program
 * outlive the relay. The relay runs on without a tunnel whatever happens here.
 */
export class TunnelManager {
  private choice: TunnelChoice | null = null;
  private port: number | null = null;
  private current: RunningTunnel | null = null;
  /** Bumped by every configure/stop: a start that finishes late for an old one is undone. */
  private generation = 0;
  private failures = 0;
  private retry: NodeJS.Timeout | null = null;
  private upAt = 0;
  private record: TunnelProcessRecord | null = null;
  private unsubscribe: () => void = () => undefined;

  constructor(private readonly deps: TunnelManagerDeps) {}

  get status(): TunnelStatus {
    return this.deps.reachability.tunnel;
  }

  /** After the ingress listens: stop what a killed relay left running, then start the choice. */
  async start(port: number, choice: TunnelChoice | null): Promise<void> {
    this.record = new TunnelProcessRecord(this.deps.dataDir, port);
    if (this.record.stopLeftOver() > 0) {
      this.deps.log.warn('[tunnel] stopped a tunnel program a previous relay left running');
    }
    this.port = port;
    this.unsubscribe = this.deps.reachability.subscribe((event) => {
      if (event.type === 'woke' && this.choice && this.status.state === 'down') this.restartNow();
    });
    await this.configure(choice);
  }

  /** A new choice (Settings, or none): the old tunnel stops, the new one starts. */
  async configure(choice: TunnelChoice | null): Promise<void> {
    this.choice = choice;
    this.failures = 0;
    await this.halt();
    if (!choice) {
      if (this.status.state !== 'off') this.deps.reachability.setTunnel(TUNNEL_OFF);
      return;
    }
    void this.launch(this.generation);
  }

  /** Starts a tunnel of this kind once, apart from the running one, and stops it again. */
  async test(choice: TunnelChoice): Promise<TunnelTest> {
    if (this.port === null)
      return { ok: false, url: null, error: 'the relay is not listening yet' };
    const same = this.choice?.kind === choice.kind && this.choice.domain === choice.domain;
    if (same && this.status.state === 'up' && this.status.url) {
      return { ok: true, url: this.status.url, error: null };
    }
    try {
      const kind = tunnelKind(choice.kind);
      // A test's program is not recorded: it is stopped before this answers.
      const running = await kind.start(this.context(choice, () => undefined));
      await running.stop();
      return { ok: true, url: running.url, error: null };
    } catch (error) {
      return { ok: false, url: null, error: words(error) };
    }
  }

  /** At relay stop (SIGTERM): the program ends with the relay. */
  async stop(): Promise<void> {
    this.unsubscribe();
    await this.halt();
  }

  private restartNow(): void {
    this.failures = 0;
    void this.halt().then(() => this.launch(this.generation));
  }

  private async halt(): Promise<void> {
    this.generation += 1;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const running = this.current;
    this.current = null;
    await running
      ?.stop()
      .catch((error: unknown) =>
        this.deps.log.warn(`[tunnel] stopping the tunnel: ${describeError(error)}`),
      );
  }

  private context(choice: TunnelChoice, record: (group: number | null) => void): TunnelContext {
    return {
      port: this.port!,
      domain: choice.domain ?? null,
      publicUrl: this.deps.publicUrl(),
      secret: this.deps.secret,
      recordProcess: record,
      env: this.deps.env ?? process.env,
      log: this.deps.log,
      pollMs: this.deps.pollMs ?? 15_000,
    };
  }

  private report(state: TunnelStatus['state'], url: string | null, lastError: string | null): void {
    this.deps.reachability.setTunnel({
      kind: this.choice?.kind ?? null,
      state,
      url,
      since: new Date(this.deps.now()).toISOString(),
      lastError,
    });
  }

  private async launch(generation: number): Promise<void> {
    const choice = this.choice;
    if (!choice || generation !== this.generation) return;
    const previous = this.status.kind === choice.kind ? this.status : null;
    this.report('starting', previous?.url ?? null, previous?.lastError ?? null);
    let kind: TunnelKind | null = null;
    try {
      kind = tunnelKind(choice.kind);
      const running = await kind.start(this.context(choice, (g) => this.record?.record(g)));
      if (generation !== this.generation) {
        await running.stop();
        return;
      }
      this.current = running;
      this.upAt = this.deps.now();
      this.deps.log.info(`[tunnel] up: ${running.url}  (${kind.label})`);
      this.report('up', running.url, null);
      void running.stopped.then((why) => this.stoppedBy(generation, running, kind!, why));
    } catch (error) {
      if (generation !== this.generation) return;
      const lasting = error instanceof TunnelError && error.lasting;
      this.fail(generation, words(error), lasting);
    }
  }

  private stoppedBy(
    generation: number,
    running: RunningTunnel,
    kind: TunnelKind,
    why: string,
  ): void {
    if (generation !== this.generation || this.current !== running) return;
    this.current = null;
    if (this.deps.now() - this.upAt >= STABLE_MS) this.failures = 0;
    const said = why.startsWith(kind.program) ? why : `${kind.program} exited: ${why}`;
    this.fail(generation, said, false);
  }

  private fail(generation: number, error: string, lasting: boolean): void {
    this.report('down', this.status.url, error);
    if (lasting) {
      this.deps.log.error(`[tunnel] ${error}. The relay runs on without a tunnel.`);
      return;
    }
    this.failures += 1;
    const first = this.deps.backoffFirstMs ?? BACKOFF_FIRST_MS;
    const delay = Math.min(first * 2 ** (this.failures - 1), BACKOFF_MAX_MS);
    this.deps.log.error(
      `[tunnel] ${error}. The relay runs on without a tunnel; trying again in ${Math.round(delay / 1000)} s.`,
    );
    this.retry = setTimeout(() => void this.launch(generation), delay);
    this.retry.unref();
  }
}
