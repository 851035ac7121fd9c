import { runPrintingUrl, withPort } from './command-tunnel.js';
import { splitCommand } from './split-command.js';
import type { TunnelKind } from './tunnel.js';
import { TunnelError } from './tunnel.js';

/** OpenSSH's debug line once the server accepted the remote forward. */
const FORWARDED = /remote forward success|Allocated port \d+ for remote forward/i;

/**
 * `ssh:<destination>`: `ssh -R` to a tunnel service that prints its URL (localhost.run,
 * pinggy) or to the user's own server, whose URL is `--public-url`. Words of the destination
 * are passed to ssh as they are (`-p 443 a.pinggy.io`); without an `-R` of its own it forwards
 * the server's port 80 to the ingress.
 */
export function sshTunnel(destination: string): TunnelKind {
  let words: string[];
  try {
    words = splitCommand(destination);
  } catch (error) {
    throw new TunnelError(`--tunnel ssh: ${(error as Error).message}`, true);
  }
  if (words.length === 0) throw new TunnelError('--tunnel ssh: names no destination', true);
  const forward = words.some((w) => w === '-R' || w.startsWith('-R'))
    ? []
    : ['-R', '80:127.0.0.1:{port}'];
  return {
    label: `ssh -R ${destination}`,
    program: 'ssh',
    start: (context) => {
      const options = [
        // Exit (and be restarted) rather than run on without the forward or a live server.
        ...['-o', 'ExitOnForwardFailure=yes', '-o', 'ServerAliveInterval=15'],
        ...['-o', 'ServerAliveCountMax=3', '-o', 'BatchMode=yes'],
      ];
      const args = withPort([...options, ...forward, ...words], context.port);
      const ownServer = context.publicUrl;
      if (ownServer === null) return runPrintingUrl('ssh', args, context);
      // The user's own server prints no URL: up once ssh says the forward is in place.
      return runPrintingUrl('ssh', ['-v', '-N', ...args], context, (output) =>
        FORWARDED.test(output) ? ownServer : null,
      );
    },
  };
}
