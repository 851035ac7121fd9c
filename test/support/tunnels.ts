import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TunnelStatus } from '../../src/shared/contract/relay.js';
import type { Core } from '../../src/main/core.js';

/** Stand-in tunnel programs (each says which published behaviour it follows). */
export const STANDINS = fileURLToPath(new URL('./tunnel-standins', import.meta.url));
export const FAKE_TUNNEL = join(STANDINS, 'fake-tunnel');

/** An environment whose PATH finds the stand-ins first (and, with `only`, nothing else). */
export function standInEnv(extra: Record<string, string> = {}, only = false): NodeJS.ProcessEnv {
  const nodeDir = join(process.execPath, '..');
  const path = only ? `${STANDINS}:${nodeDir}` : `${STANDINS}:${process.env.PATH ?? ''}`;
  return { ...process.env, PATH: path, ...extra };
}

/** Resolves with the tunnel's status once `accept` says yes (checked now and at every change). */
export function tunnelState(
  core: Core,
  accept: (tunnel: TunnelStatus) => boolean,
  timeoutMs = 20_000,
): Promise<TunnelStatus> {
  if (accept(core.reachability.tunnel)) return Promise.resolve(core.reachability.tunnel);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(
        new Error(`the tunnel never got there; it is ${JSON.stringify(core.reachability.tunnel)}`),
      );
    }, timeoutMs);
    const unsubscribe = core.reachability.subscribe((event) => {
      if (event.type === 'tunnel' && accept(event.tunnel)) {
        clearTimeout(timer);
        unsubscribe();
        resolve(event.tunnel);
      }
    });
  });
}

/** The tunnel programs' process groups as the relays of this data dir recorded them. */
export function recordedGroups(dataDir: string): number[] {
  const dir = join(dataDir, 'tunnel-processes');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).map(
    (name) => (JSON.parse(readFileSync(join(dir, name), 'utf8')) as { group: number }).group,
  );
}

/** The one tunnel program recorded in this data dir. */
export function recordedGroup(dataDir: string): number {
  const groups = recordedGroups(dataDir);
  if (groups.length !== 1)
    throw new Error(`expected one recorded tunnel program, not ${groups.length}`);
  return groups[0]!;
}

/** Whether a process (group leader) is still alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
