import { execFile } from 'node:child_process';
import { z } from 'zod';
import type { RunningTunnel, TunnelContext, TunnelKind } from './tunnel.js';
import { TunnelError } from './tunnel.js';
import { notInstalled, programFailure } from './words.js';

/** The part of `tailscale status --json` the funnel's URL comes from. */
const statusSchema = z.object({
  BackendState: z.string().optional(),
  Self: z.object({ DNSName: z.string() }).optional(),
});

function tailscale(args: string[], context: TunnelContext): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('tailscale', args, { env: context.env, timeout: 30_000 }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return reject(notInstalled('tailscale'));
      const said = `${stdout}\n${stderr}`.trim();
      reject(
        new TunnelError(
          programFailure('tailscale', said) ??
            `tailscale ${args[0]} failed: ${said.split('\n').at(-1) ?? error.message}`,
        ),
      );
    });
  });
}

/** `https://<Self.DNSName>` while tailscale runs; why not otherwise. */
async function funnelUrl(context: TunnelContext): Promise<string> {
  const text = await tailscale(['status', '--json'], context);
  let parsed;
  try {
    parsed = statusSchema.parse(JSON.parse(text));
  } catch {
    throw new TunnelError('tailscale status --json answered something that is not its status');
  }
  if (parsed.BackendState !== undefined && parsed.BackendState !== 'Running') {
    throw new TunnelError(
      programFailure('tailscale', parsed.BackendState) ??
        `tailscale is ${parsed.BackendState}, not Running: run tailscale up`,
    );
  }
  const name = parsed.Self?.DNSName.replace(/\.$/, '') ?? '';
  if (name === '')
    throw new TunnelError('tailscale has no DNS name for this machine: enable MagicDNS');
  return `https://${name}`;
}

/**
 * `tailscale`: Tailscale Funnel (`tailscale funnel --bg <port>`); tailscaled serves it, so the
 * relay watches `tailscale status --json` and calls it stopped when the name changes or the
 * backend stops running.
 */
export const tailscaleTunnel: TunnelKind = {
  label: 'Tailscale Funnel',
  program: 'tailscale',
  async start(context: TunnelContext): Promise<RunningTunnel> {
    await tailscale(['funnel', '--bg', String(context.port)], context);
    const url = await funnelUrl(context);
    let timer: NodeJS.Timeout | undefined;
    let watching = true;
    // One look at a time, `pollMs` after the last one answered.
    const stopped = new Promise<string>((resolve) => {
      const look = (): void => {
        timer = setTimeout(() => {
          funnelUrl(context).then(
            (now) => (now !== url ? resolve(`tailscale's URL changed to ${now}`) : next()),
            (error: unknown) => resolve((error as Error).message),
          );
        }, context.pollMs);
        timer.unref();
      };
      const next = (): void => {
        if (watching) look();
      };
      look();
    });
    const stopWatching = (): void => {
      watching = false;
      clearTimeout(timer);
    };
    return {
      url,
      stopped,
      stop: async () => {
        stopWatching();
        await tailscale(['funnel', '--https=443', 'off'], context).catch(() => undefined);
      },
    };
  },
};
