import { version } from '../../../package.json';
import { AdminClient } from './admin-client.js';
import { parseCommandLine } from './command-line.js';

export const MCP_HELP = `Usage:
  hookport mcp [--admin-url URL] [--data-dir D]

A Model Context Protocol server on standard input and output, for an agent on this machine: it
searches the deliveries, automations and runs of a running relay and tests its filters, through
the relay's admin API. A view token gets the read tools; a manage token adds replay_delivery and
rerun. Add it to an agent's MCP configuration as a stdio server (docs/guide/mcp.md). Standard output
carries only MCP messages; problems go to standard error.

  --admin-url URL   the relay's admin listener (default http://127.0.0.1:8788)
  --data-dir D      where to read admin-token (default $HOOKPORT_DATA_DIR or ~/.hookport);
                    HOOKPORT_ADMIN_TOKEN, when set, is used instead (a view token works)
`;

export async function mcp(args: string[]): Promise<void> {
  const { values } = parseCommandLine({
    args,
    options: {
      'admin-url': { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
  });
  if (values.help) {
    console.log(MCP_HELP);
    return;
  }
  const client = AdminClient.fromTarget({
    adminUrl: values['admin-url'],
    dataDir: values['data-dir'],
  });
  // Which tools to offer depends on the token's role; a relay that cannot be reached fails here,
  // with the same message `hookport replay` gives, before the client is told of any tool.
  const { role } = await client.call('relay.status', {});
  // Loaded here, not with the CLI: `hookport serve` never carries the SDK for this command.
  const [{ StdioServerTransport }, { createHookportMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('../mcp/mcp-server.js'),
  ]);
  const server = createHookportMcpServer({
    call: (gone) => (name, input) => client.call(name, input, gone),
    role,
    version,
  });
  // Serves until the client closes standard input.
  await server.connect(new StdioServerTransport());
}
