import { version } from '../../../package.json';
import { USAGE, UsageError } from './usage.js';

type Command = (args: string[]) => Promise<void>;

// Each command loads only its own code: `hookport send` starts without the relay's core.
const commands: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./serve.js')).serve,
  send: async () => (await import('./send.js')).send,
  replay: async () => (await import('./replay.js')).replay,
  forward: async () => (await import('./forward.js')).forward,
  apply: async () => (await import('./apply.js')).apply,
  'test-filter': async () => (await import('./test-filter.js')).testFilter,
  mcp: async () => (await import('./mcp.js')).mcp,
  link: async () => (await import('./link.js')).link,
  recover: async () => (await import('./link.js')).recover,
};

async function main(argv: string[]): Promise<void> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(USAGE);
    return;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    console.log(`hookport ${version}`);
    return;
  }
  const load = commands[name];
  if (!load) throw new UsageError(`Unknown command "${name}".`);
  await (
    await load()
  )(args);
}

const errorCode = (error: unknown): string => {
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : '';
};

main(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  const code = errorCode(error);
  if (error instanceof UsageError || code.startsWith('ERR_PARSE_ARGS')) {
    console.error(`hookport: ${message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (code === 'EADDRINUSE') {
    console.error(
      `hookport: ${message}. Is another relay running? Choose other ports with --ingress-port / --admin-port.`,
    );
    process.exitCode = 1;
    return;
  }
  console.error(`hookport: ${message}`);
  process.exitCode = 1;
});
