import { BRIDGE_GLOBAL } from '../../shared/bridge.js';

/** Rows in one page of a webhook's log (the first page and each page read on scroll). */
export const DELIVERY_PAGE_SIZE = 200;

export interface EarlyAnswer {
  status: number;
  text: string;
}

const early = new Map<string, Promise<EarlyAnswer>>();

/**
 * The reads the first screen of a route waits on, as GET paths of the admin API. Spelled here
 * rather than derived from the contract: the contract's schemas are most of the app's script,
 * and these start before it arrives. A path the contract spells otherwise is never taken (the
 * read is simply made again); test/unit/renderer/early-fetches.test.ts holds them equal.
 */
export function firstScreenPaths(route: readonly string[]): string[] {
  const [section = 'webhooks', uid] = route;
  const paths = ['/api/status', '/api/factories'];
  if (section !== 'webhooks') return paths;
  paths.push('/api/webhooks');
  if (uid) {
    paths.push(`/api/webhooks/${encodeURIComponent(uid)}/deliveries?limit=${DELIVERY_PAGE_SIZE}`);
  }
  return paths;
}

/**
 * Starts the first screen's reads from the boot script, in parallel with the app's script and
 * the page's chunk rather than after them. Only in a browser tab: the desktop app talks IPC.
 */
export function startEarlyFetches(route: readonly string[]): void {
  if (BRIDGE_GLOBAL in globalThis) return;
  for (const path of firstScreenPaths(route)) {
    const answer = fetch(path, { credentials: 'same-origin' }).then(async (response) => ({
      status: response.status,
      text: await response.text(),
    }));
    // Whoever takes it handles a failure; one never taken must not be reported as unhandled.
    answer.catch(() => undefined);
    early.set(path, answer);
  }
}

/** The answer of the early GET of exactly this path, once; undefined when none was started. */
export function takeEarlyFetch(path: string): Promise<EarlyAnswer> | undefined {
  const answer = early.get(path);
  early.delete(path);
  return answer;
}
