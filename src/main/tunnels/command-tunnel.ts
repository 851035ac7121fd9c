import { splitCommand } from './split-command.js';
import type { RunningTunnel, TunnelContext, TunnelKind } from './tunnel.js';
import { TunnelError } from './tunnel.js';
import { startTunnelProgram, urlPrinted } from './tunnel-process.js';

/** `{port}` in a tunnel command's words is the ingress port. */
export const withPort = (words: string[], port: number): string[] =>
  words.map((word) => word.replaceAll('{port}', String(port)));

/** Runs a program until it is stopped; up once it printed its public URL. */
export async function runPrintingUrl(
  program: string,
  args: string[],
  context: TunnelContext,
  readyWhen?: (output: string) => string | null,
): Promise<RunningTunnel> {
  const running = await startTunnelProgram(program, args, context);
  const url = await urlPrinted(running, program, context.port, readyWhen);
  return { url, stopped: running.exited, stop: running.stop };
}

/** `command:<program and arguments>`: any program that prints its public URL (PRODUCT §18). */
export function commandTunnel(command: string): TunnelKind {
  let words: string[];
  try {
    words = splitCommand(command);
  } catch (error) {
    throw new TunnelError(`--tunnel command: ${(error as Error).message}`, true);
  }
  const [program, ...args] = words;
  if (!program) throw new TunnelError('--tunnel command: names no program', true);
  return {
    label: `command ${program}`,
    program,
    start: (context) => runPrintingUrl(program, withPort(args, context.port), context),
  };
}
