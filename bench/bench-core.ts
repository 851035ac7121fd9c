import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CoreConfig } from '../src/main/config.js';
import { startCore, type Core } from '../src/main/core.js';
import { silentLogger } from '../src/main/log.js';

export interface BenchCore {
  core: Core;
  /** POSTs JSON to the management API with the admin token; the answer, or an error. */
  post<T>(path: string, body: unknown): Promise<T>;
  stop(): Promise<void>;
}

/** A real relay for a benchmark: a fresh data dir, loopback listeners on free ports, no log. */
export async function startBenchCore(overrides: Partial<CoreConfig> = {}): Promise<BenchCore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hookport-bench-'));
  const core = await startCore({
    dataDir,
    ingress: { host: '127.0.0.1', port: 0 },
    admin: { port: 0 },
    log: silentLogger,
    secretBackend: 'file',
    adminTokenFromEnv: undefined,
    masterKeyFromEnv: undefined,
    ...overrides,
  });
  return {
    core,
    async post<T>(path: string, body: unknown): Promise<T> {
      const response = await fetch(`${core.adminUrl}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${core.adminToken.value}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`POST ${path}: ${await response.text()}`);
      return (await response.json()) as T;
    },
    async stop() {
      await core.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
