import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { freeLoopbackPort } from './free-port.js';
import type { RunningTunnel, TunnelContext, TunnelKind } from './tunnel.js';
import { TunnelError } from './tunnel.js';
import { URL_TIMEOUT_MS, startTunnelProgram, type TunnelProgram } from './tunnel-process.js';

const POLL_MS = 250;

/** cloudflared's metrics server: `/quicktunnel` answers `{"hostname": "…trycloudflare.com"}`. */
const quickTunnelSchema = z.object({ hostname: z.string() });

async function get(url: string): Promise<Response | null> {
  try {
    return await fetch(url, { signal: AbortSignal.timeout(2_000) });
  } catch {
    return null; // not listening yet
  }
}

/**
 * The quick tunnel's URL once the metrics server names its hostname (`/quicktunnel`) and
 * `/ready` answers 200 (at least one connection to Cloudflare's edge is up), as cloudflared's
 * metrics package serves them (metrics/metrics.go, metrics/readiness.go). The URL is read from
 * there, never scraped from its log, whose wording changes between versions.
 */
async function quickTunnelUrl(metrics: string, program: TunnelProgram): Promise<string> {
  const ended: { why: string | null } = { why: null };
  void program.exited.then((why) => (ended.why = why));
  const deadline = Date.now() + URL_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (ended.why !== null) throw new TunnelError(ended.why);
    const quick = await get(`${metrics}/quicktunnel`);
    const parsed = quickTunnelSchema.safeParse(
      quick?.ok ? await quick.json().catch(() => null) : null,
    );
    if (parsed.success && parsed.data.hostname !== '') {
      const ready = await get(`${metrics}/ready`);
      await ready?.body?.cancel();
      if (ready?.status === 200) return `https://${parsed.data.hostname}`;
    }
    await sleep(POLL_MS);
  }
  throw new TunnelError(
    `cloudflared did not get a quick tunnel within ${URL_TIMEOUT_MS / 1000} s: check the internet connection`,
  );
}

/** `cloudflared`: a Cloudflare quick tunnel through the installed binary (PRODUCT §18). */
export const cloudflaredTunnel: TunnelKind = {
  label: 'cloudflared quick tunnel',
  program: 'cloudflared',
  async start(context: TunnelContext): Promise<RunningTunnel> {
    const metrics = `127.0.0.1:${await freeLoopbackPort()}`;
    const args = ['tunnel', '--no-autoupdate', '--url', `http://127.0.0.1:${context.port}`];
    const program = await startTunnelProgram(
      'cloudflared',
      [...args, '--metrics', metrics],
      context,
    );
    try {
      const url = await quickTunnelUrl(`http://${metrics}`, program);
      return { url, stopped: program.exited, stop: program.stop };
    } catch (error) {
      await program.stop();
      throw error;
    }
  },
};
