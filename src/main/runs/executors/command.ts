import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CommandExecutorConfig } from '../../../shared/contract/executors.js';
import { mcpEnvelopeNote, PAYLOAD_FILE_NAME } from '../run-input.js';
import { KILL_GRACE_MS, processStart } from '../run-process.js';
import { BoundedOutput } from './bounded-output.js';
import { failed, type ExecutionResult, type RunJob } from './types.js';

export const PROMPT_FILE_NAME = 'PROMPT.md';
/** After the process exits, how long a grandchild may keep its stdout open before we stop reading. */
const STREAM_GRACE_MS = 1_000;

/** `<data-dir>/runs/<run id>`: one fresh folder per run, kept afterwards for inspection. */
export const runFolder = (dataDir: string, runId: string): string => join(dataDir, 'runs', runId);

/**
 * Set by the `hookport` launcher to bound the relay's own memory (README, "Memory"): a run's
 * program keeps its allocator's defaults.
 */
const RELAY_ONLY = new Set(['MALLOC_ARENA_MAX']);

/**
 * The relay's environment minus every HOOKPORT_* variable (the admin token and the master key
 * never reach a child) and minus the launcher's malloc setting.
 */
export function inheritedEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toUpperCase().startsWith('HOOKPORT_') && !RELAY_ONLY.has(key)) env[key] = value;
  }
  return env;
}

/** The child's environment: the relay's own (without HOOKPORT_*), plus the run's identifiers. */
function childEnv(job: RunJob, dir: string): NodeJS.ProcessEnv {
  return {
    ...inheritedEnv(),
    HOOKPORT_RUN_ID: job.runId,
    HOOKPORT_DELIVERY_ID: job.deliveryId,
    HOOKPORT_WEBHOOK_UID: job.webhookUid,
    // Empty when unknown; event types never hold control characters (shared/event-type).
    HOOKPORT_EVENT_TYPE: job.eventType ?? '',
    HOOKPORT_AUTOMATION_ID: job.automationId,
    HOOKPORT_RUN_DIR: dir,
    ...(job.mcp ? { HOOKPORT_MCP_URL: job.mcp.url, HOOKPORT_MCP_TOKEN: job.mcp.token } : {}),
  };
}

/** Signals the whole process group, so that a shell's children stop too. */
function killTree(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(process.platform === 'win32' ? child.pid : -child.pid, signal);
  } catch {
    // Already gone.
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function prepareFolder(dataDir: string, job: RunJob): Promise<string> {
  const dir = runFolder(dataDir, job.runId);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const prompt = job.mcp ? job.input + mcpEnvelopeNote(job.mcp.url) : job.input;
  await writeFile(join(dir, PROMPT_FILE_NAME), prompt, { mode: 0o600 });
  await writeFile(join(dir, PAYLOAD_FILE_NAME), job.payload, { mode: 0o600 });
  return dir;
}

/** Runs the configured program once for a run; exit code 0 is success, anything else a failure. */
export async function executeCommand(
  config: CommandExecutorConfig,
  dataDir: string,
  job: RunJob,
): Promise<ExecutionResult> {
  if (config.cwd !== undefined && !(await isDirectory(config.cwd))) {
    // spawn would only say ENOENT, which reads as if the program were missing.
    return failed(`the working directory "${config.cwd}" does not exist`);
  }
  const dir = await prepareFolder(dataDir, job);
  // A stop that came while the folder was written would never reach a child started now.
  if (job.signal.aborted) return failed('stopped before the command started');
  const output = new BoundedOutput();
  const child = spawn(config.command, config.args, {
    cwd: config.cwd ?? dir,
    env: childEnv(job, dir),
    // No shell unless the factory says so: arguments reach the program exactly as configured.
    shell: config.shell,
    // Its own process group, so a timeout or a stop can end everything it started.
    detached: process.platform !== 'win32',
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  if (child.pid !== undefined && process.platform !== 'win32') {
    // Its own process group (detached), led by the program: recorded before anything else.
    job.started({ group: child.pid, started: processStart(child.pid) });
  }
  const capture = (chunk: Buffer): void => {
    output.push(chunk);
    job.onOutput?.(chunk);
  };
  child.stdout.on('data', capture);
  child.stderr.on('data', capture);

  let timedOut = false;
  const stop = (): void => {
    killTree(child, 'SIGTERM');
    setTimeout(() => killTree(child, 'SIGKILL'), KILL_GRACE_MS).unref();
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, config.timeoutSeconds * 1000);
  job.signal.addEventListener('abort', stop, { once: true });

  const ended = await new Promise<
    { code: number | null; signal: NodeJS.Signals | null } | { spawnError: Error }
  >((resolve) => {
    child.once('error', (spawnError) => resolve({ spawnError }));
    child.once('exit', (code, signal) => {
      // A background grandchild may hold the pipes open; stop waiting for it after a moment.
      const grace = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, STREAM_GRACE_MS);
      child.once('close', () => {
        clearTimeout(grace);
        resolve({ code, signal });
      });
    });
  });
  clearTimeout(timer);
  job.signal.removeEventListener('abort', stop);

  const text = output.text();
  if ('spawnError' in ended) {
    const code = (ended.spawnError as NodeJS.ErrnoException).code ?? ended.spawnError.message;
    return failed(`could not start "${config.command}": ${code}`, text);
  }
  if (timedOut) {
    return failed(
      `timed out after ${config.timeoutSeconds} s; the command was stopped`,
      text,
      ended.code,
    );
  }
  if (ended.code === 0) return { status: 'succeeded', exitCode: 0, output: text, error: null };
  if (ended.code !== null) return failed(`exited with code ${ended.code}`, text, ended.code);
  return failed(`was ended by ${ended.signal ?? 'a signal'}`, text);
}
