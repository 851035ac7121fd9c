import { version } from '../../../package.json';
import { apply } from './apply.js';
import { forward } from './forward.js';
import { mcp } from './mcp.js';
import { link, recover } from './link.js';
import { replay } from './replay.js';
import { send } from './send.js';
import { serve } from './serve.js';
import { testFilter } from './test-filter.js';
import { USAGE, UsageError } from './usage.js';

type Command = (args: string[]) => Promise<void>;

const commands: Record<string, Command> = {
  serve,
  send,
  replay,
  forward,
  apply,
  'test-filter': testFilter,
  mcp,
  link,
  recover,
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
  const command = commands[name];
  if (!command) throw new UsageError(`Unknown command "${name}".`);
  await command(args);
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
