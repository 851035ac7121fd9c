import type { Logger } from '../log.js';

/** What every kind of tunnel is given to start. */
export interface TunnelContext {
  /** The ingress listener's port on 127.0.0.1: the only listener a tunnel ever exposes. */
  port: number;
  /** `--tunnel-domain` (ngrok's reserved domain). */
  domain: string | null;
  /** `--public-url`: the URL of an `ssh:` tunnel to the user's own server, which prints none. */
  publicUrl: string | null;
  /** A team secret's value in the default factory (ngrok's authtoken), or undefined. */
  secret: (name: string) => string | undefined;
  /** Called with the process group of a started program (null once it is gone). */
  recordProcess(group: number | null): void;
  env: NodeJS.ProcessEnv;
  /** How often a tunnel served by a daemon (tailscale) is looked at again. */
  pollMs: number;
  log: Logger;
}

/** A tunnel that came up. */
export interface RunningTunnel {
  /** Its public URL: the base of every ingress URL shown while it runs. */
  url: string;
  /** Settles once the tunnel stopped by itself, with why (never when `stop()` ended it). */
  stopped: Promise<string>;
  /** Ends it (and its program's whole process group); resolves once it is gone. */
  stop: () => Promise<void>;
}

/** One kind of tunnel (PRODUCT §18): start → its URL, or a TunnelError in words. */
export interface TunnelKind {
  /** How the banner and the tray name it: "cloudflared quick tunnel". */
  label: string;
  /** The program that runs it, named in "cloudflared exited: …". */
  program: string;
  start(context: TunnelContext): Promise<RunningTunnel>;
}

/**
 * Why a tunnel could not start, as one line with its fix. `lasting` errors (a program or a
 * credential missing) are not retried on a timer: nothing changes until the user acts.
 */
export class TunnelError extends Error {
  constructor(
    message: string,
    readonly lasting = false,
  ) {
    super(message);
    this.name = 'TunnelError';
  }
}

/**
 * The first http(s) URL in a program's output (trailing punctuation and slashes dropped),
 * skipping the local address it forwards to (`http://127.0.0.1:<ingress port>`, which tunnel
 * programs print too).
 */
export function firstUrl(text: string, localPort?: number): string | null {
  for (const match of text.matchAll(/\bhttps?:\/\/[^\s"'<>|`]+/gi)) {
    const url = match[0].replace(/[.,;:)\]}]+$/, '').replace(/\/+$/, '');
    if (localPort !== undefined && isLocal(url, localPort)) continue;
    return url;
  }
  return null;
}

function isLocal(url: string, port: number): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  const loopback = ['127.0.0.1', 'localhost', '[::1]', '0.0.0.0'].includes(parsed.hostname);
  return loopback && parsed.port === String(port);
}
