import type { RelaySettings } from '../service/relay-settings.js';
import type { RunTokens } from './run-tokens.js';

/** What a `command` run gets when its factory has `mcpForRuns` (§21). */
export interface RunMcpAccess {
  url: string;
  token: string;
}

/**
 * Opens and closes a run's access to the MCP endpoint. Null when the factory did not ask for it,
 * or when the relay has no admin listener to serve it on (the desktop app talks over IPC).
 */
export class RunMcpAccessGate {
  /** `<admin listener>/mcp`, set once the listener is up. */
  url: string | null = null;

  constructor(
    private readonly settings: Pick<RelaySettings, 'mcpForRuns'>,
    private readonly tokens: RunTokens,
  ) {}

  async open(factoryId: string, runId: string): Promise<RunMcpAccess | null> {
    if (this.url === null || !(await this.settings.mcpForRuns(factoryId))) return null;
    return { url: this.url, token: this.tokens.mint(runId) };
  }

  close(runId: string): void {
    this.tokens.revoke(runId);
  }
}
