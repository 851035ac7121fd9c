import { randomBytes } from 'node:crypto';
import type { Role } from '../../shared/contract/define.js';
import { hashToken } from '../admin/token-values.js';

/**
 * The `view` tokens `command` runs get for the MCP endpoint (§21): minted when a run starts,
 * forgotten when it ends. Held in memory as hashes only: a run executes on the relay that minted
 * its token and talks to that relay's own admin listener, and a relay that stops ends its runs,
 * so nothing has to outlive the process (no rows to clean up after a crash).
 */
export class RunTokens {
  private readonly runByHash = new Map<string, string>();
  private readonly hashByRun = new Map<string, string>();

  mint(runId: string): string {
    this.revoke(runId);
    const value = `hpr_${randomBytes(32).toString('base64url')}`;
    const hash = hashToken(value);
    this.runByHash.set(hash, runId);
    this.hashByRun.set(runId, hash);
    return value;
  }

  revoke(runId: string): void {
    const hash = this.hashByRun.get(runId);
    if (hash === undefined) return;
    this.hashByRun.delete(runId);
    this.runByHash.delete(hash);
  }

  /** `view` while the run that holds the token runs; null for any other value. */
  roleOf(value: string): Role | null {
    return this.runByHash.has(hashToken(value)) ? 'view' : null;
  }
}
