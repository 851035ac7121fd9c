import { spawn } from 'node:child_process';
import { stopProcessGroup } from '../runs/run-process.js';
import type { TunnelContext } from './tunnel.js';
import { TunnelError, firstUrl } from './tunnel.js';
import { notInstalled, programFailure } from './words.js';

/** How much of a program's output is kept to find its URL and explain its exit. */
const OUTPUT_KEPT = 32_000;
/** How long a program may take to print (or serve) its URL. */
export const URL_TIMEOUT_MS = 60_000;

/** A tunnel program running in a process group of its own. */
export interface TunnelProgram {
  readonly group: number;
  /** What it printed so far (stdout and stderr, the last 32 kB). */
  output(): string;
  /** Calls `listener` with each chunk it prints from now on. */
  onOutput(listener: () => void): void;
  /** Settles when it exits, with why in words (its own error lines when it printed known ones). */
  exited: Promise<string>;
  /** SIGTERM to its group (SIGKILL after the grace); resolves once it exited. */
  stop: () => Promise<void>;
}

/**
 * Starts `program` in a process group of its own (so it and its children stop together, and a
 * relay killed with SIGKILL leaves a group the next start can find), and records the group.
 */
export function startTunnelProgram(
  program: string,
  args: string[],
  context: TunnelContext,
): Promise<TunnelProgram> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: context.env,
      windowsHide: true,
    });
    let output = '';
    const listeners: Array<() => void> = [];
    const take = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT);
      for (const listener of listeners) listener();
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    let stopping = false;
    const exited = new Promise<string>((settle) => {
      child.once('exit', (code, signal) => {
        context.recordProcess(null);
        const lastLine = output.trim().split('\n').at(-1)?.trim() ?? '';
        const known = programFailure(program, output);
        const how = code !== null ? `exited with code ${code}` : `was ended by ${signal}`;
        // A program that failed says why in its last line; one ended by a signal was just ended.
        const said = code !== null && lastLine ? `: ${lastLine.slice(0, 300)}` : '';
        settle(known ?? `${program} ${how}${said}`);
      });
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? notInstalled(program)
          : new TunnelError(`${program} could not start: ${error.message}`),
      );
    });
    child.once('spawn', () => {
      const group = child.pid!;
      context.recordProcess(group);
      resolve({
        group,
        output: () => output,
        onOutput: (listener) => listeners.push(listener),
        exited,
        stop: async () => {
          if (!stopping && child.exitCode === null && child.signalCode === null) {
            stopping = true;
            if (process.platform === 'win32') child.kill();
            else stopProcessGroup(group);
          }
          await exited;
        },
      });
    });
  });
}

/**
 * Waits for the first http(s) URL the program prints (or `found` says), or fails with why it
 * exited first or that it printed none in time.
 */
export async function urlPrinted(
  program: TunnelProgram,
  name: string,
  localPort: number,
  found: (output: string) => string | null = (output) => firstUrl(output, localPort),
): Promise<string> {
  let done: (url: string) => void = () => undefined;
  const printed = new Promise<string>((resolve) => (done = resolve));
  const look = (): void => {
    const url = found(program.output());
    if (url) done(url);
  };
  program.onOutput(look);
  look();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new TunnelError(
            `${name} printed no public URL within ${URL_TIMEOUT_MS / 1000} s${lastLines(program.output())}`,
          ),
        ),
      URL_TIMEOUT_MS,
    );
  });
  const died = program.exited.then((why) => Promise.reject(new TunnelError(why)));
  try {
    return await Promise.race([printed, died, timeout]);
  } catch (error) {
    await program.stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function lastLines(output: string): string {
  const tail = output.trim().split('\n').slice(-2).join(' / ').trim();
  return tail ? ` (it said: ${tail.slice(0, 300)})` : '';
}
