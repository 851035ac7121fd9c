import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Deadlines } from './http/listener.js';
import type { ProviderTiming } from './links/provider.js';
import type { Ticker } from './links/wake-detector.js';
import type { Logger } from './log.js';
import type { ProbeRunner } from './secrets/keychain-probe.js';
import type { SecretStore } from './secrets/secret-store.js';
import type { Store } from './store/store.js';
import type { TunnelConfig } from './tunnels/relay-tunnel.js';

export interface CoreConfig {
  dataDir: string;
  ingress: { host: string; port: number };
  /** The admin listener is loopback-only; only its port is configurable. Null: no listener. */
  admin: { port: number } | null;
  /** `base_url` of every ingress URL shown; persisted as the relay's setting when given. */
  publicUrl?: string | null;
  /** `serve --definitions DIR`: the default factory is managed by this directory (absolute). */
  definitionsDir?: string | null;
  /** Client address from the last X-Forwarded-For hop (behind a tunnel). Ingress only. */
  trustProxy?: boolean;
  /** The built UI to serve on the admin listener. */
  uiDir?: string | null;
  /** `--database` / HOOKPORT_DATABASE_URL: run on this PostgreSQL database, with any other relays on it. */
  databaseUrl?: string | null;
  /** HOOKPORT_RUN_LEASE_MS (PostgreSQL only): how long a dead relay's running runs wait to become interrupted (30 s). */
  runLeaseMs?: number;
  adminTokenFromEnv?: string;
  masterKeyFromEnv?: string;
  /** HOOKPORT_SECRET_BACKEND: `keychain` or `file` forces that backend. */
  secretBackend?: string;
  /** Runs the keychain probe's child process; the desktop app passes Electron's utility process. */
  keychainProbeRunner?: ProbeRunner;
  /** Tests inject a store; otherwise the keychain when reachable, else the encrypted file. */
  secretStore?: SecretStore;
  /** How to run `hookport` here, for the UI's sample commands (default: `hookport`). */
  cliCommand?: string;
  /** Defaults are the seed's limits; only the benchmark raises them. */
  limits?: { deliveriesPerMinute?: number; webhooksPerFactory?: number };
  /** How long forwarding one delivery to a handler may take in all (default 15 s). */
  forwardTimeoutMs?: number;
  /** `--tunnel`, HOOKPORT_TUNNEL (PRODUCT §18); without a choice here, the Settings one runs. */
  tunnel?: TunnelConfig;
  /** Provider links (§19) and the wake detector (§20); tests shorten waits and tick by hand. */
  links?: { timing?: Partial<ProviderTiming>; recoverEveryMs?: number; wakeTicker?: Ticker };
  /** The ingress's slow-sender deadlines (PRODUCT §3: 10 s, 30 s); tests of slow senders shorten them. */
  ingressDeadlines?: Partial<Deadlines>;
  log?: Logger;
  now?: () => number;
  /**
   * Opens the store the relay keeps everything in; the relay closes it when it stops. Default:
   * the SQLite file `hookport.sqlite` in the data dir (`openSqliteStore`).
   */
  openStore?: (context: { dataDir: string; log: Logger }) => Promise<Store>;
}

export const DEFAULT_INGRESS_PORT = 8787;
export const DEFAULT_ADMIN_PORT = 8788;
export const defaultDataDir = (): string => join(homedir(), '.hookport');
export const DEFAULT_ADMIN_URL = `http://127.0.0.1:${DEFAULT_ADMIN_PORT}`;
