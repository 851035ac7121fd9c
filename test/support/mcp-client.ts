import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** This process's environment without HOOKPORT_* variables. */
const cleanEnv = (): Record<string, string> =>
  Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        !entry[0].startsWith('HOOKPORT_') && entry[1] !== undefined,
    ),
  );

export type McpTransportKind = 'http' | 'stdio';

export interface McpConnection {
  client: Client;
  /** What `hookport mcp` wrote to standard error (stdio only). */
  stderr(): string;
  close(): Promise<void>;
}

/** One JSON-RPC message POSTed to `/mcp` as it is, without the SDK (a stateless exchange). */
export function postMcp(
  adminUrl: string,
  token: string,
  message: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(`${adminUrl}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...message }),
    ...(signal ? { signal } : {}),
  });
}

/** The SDK's own client, over `/mcp` on the admin listener. */
export async function connectHttp(adminUrl: string, token: string): Promise<McpConnection> {
  const client = new Client({ name: 'hookport-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${adminUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return { client, stderr: () => '', close: () => client.close() };
}

/**
 * The SDK's own client, running the built `hookport mcp` (bin/hookport.js over the bundle that
 * `npm run build` makes; npm test builds first) as an MCP host would.
 */
export async function connectStdio(adminUrl: string, token: string): Promise<McpConnection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(REPO, 'bin/hookport.js'), 'mcp', '--admin-url', adminUrl],
    env: { ...cleanEnv(), HOOKPORT_ADMIN_TOKEN: token },
    cwd: REPO,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'hookport-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** Runs the built `hookport <args>` to its end; HOOKPORT_* variables only from `env`. */
export function runBuiltHookport(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(REPO, 'bin/hookport.js'), ...args],
      { cwd: REPO, env: { ...cleanEnv(), ...env } },
      (error, stdout, stderr) =>
        resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr }),
    );
  });
}

export const connectMcp = (
  kind: McpTransportKind,
  adminUrl: string,
  token: string,
): Promise<McpConnection> =>
  kind === 'http' ? connectHttp(adminUrl, token) : connectStdio(adminUrl, token);

/** A tool call's result, with its first text part (the summary) at hand. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult & { summary: string; data: Record<string, unknown> }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  return {
    ...result,
    summary: first?.type === 'text' ? first.text : '',
    data: result.structuredContent ?? {},
  };
}
