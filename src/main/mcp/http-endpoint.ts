import type { Context } from 'koa';
import { version } from '../../../package.json';
import type { Role } from '../../shared/contract/index.js';
import { ApiError } from '../../shared/errors.js';
import type { AdminAuth } from '../admin/auth.js';
import type { Logger } from '../log.js';
import type { ServiceHandlers } from '../service/handlers.js';
import { inProcessCall } from './in-process-call.js';
import type { RunTokens } from './run-tokens.js';

export const MCP_PATH = '/mcp';

export interface McpEndpointDeps {
  service: ServiceHandlers;
  auth: Pick<AdminAuth, 'roleForToken'>;
  /** The tokens of running `command` runs (§21 mcpForRuns); they open this endpoint only. */
  runTokens?: RunTokens | undefined;
  log: Logger;
}

const BEARER = /^Bearer[ ]+(\S+)$/i;

/** A bearer token only: a browser's session cookie never opens the MCP endpoint. */
async function callerRole(ctx: Context, deps: McpEndpointDeps): Promise<Role> {
  const match = BEARER.exec(ctx.get('authorization'));
  const value = match?.[1];
  const role = value
    ? (deps.runTokens?.roleOf(value) ?? (await deps.auth.roleForToken(value)))
    : null;
  if (role) return role;
  ctx.set('WWW-Authenticate', 'Bearer realm="hookport"');
  throw new ApiError(
    'unauthorized',
    value
      ? 'That token is not valid (a run token ends with its run).'
      : 'Send "Authorization: Bearer <token>": the admin token or a token made in Settings.',
  );
}

/**
 * `/mcp` on the admin listener: Streamable HTTP, stateless (each POST is a whole exchange, with a
 * server built for the caller's role). The Host and Origin checks ran before (loopbackGuard). The
 * SDK is loaded on the first call, so a relay nobody asks over MCP does not carry it.
 */
export function mcpEndpoint(deps: McpEndpointDeps): (ctx: Context) => Promise<void> {
  return async (ctx) => {
    const role = await callerRole(ctx, deps);
    if (ctx.method !== 'POST') {
      // No server-initiated messages and no sessions: nothing to GET or DELETE.
      ctx.status = 405;
      ctx.set('Allow', 'POST');
      ctx.body = {
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Send MCP requests with POST.' },
        id: null,
      };
      return;
    }
    const [{ createHookportMcpServer }, { StreamableHTTPServerTransport }] = await Promise.all([
      import('./mcp-server.js'),
      import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    ]);
    const server = createHookportMcpServer({
      call: (gone) => inProcessCall(deps.service, { role, gone }, deps.log),
      role,
      version,
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    ctx.res.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    ctx.respond = false;
    await transport.handleRequest(ctx.req, ctx.res, (ctx.request as { body?: unknown }).body);
  };
}
