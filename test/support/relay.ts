import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminClient } from '../../src/main/cli/admin-client.js';
import type { CoreConfig } from '../../src/main/config.js';
import { startCore, type Core } from '../../src/main/core.js';
import type { Logger } from '../../src/main/log.js';
import type { MethodInput, MethodName, MethodOutput } from '../../src/shared/contract/index.js';
import { ApiError } from '../../src/shared/errors.js';

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestRelay {
  core: Core;
  dataDir: string;
  /** e.g. http://127.0.0.1:41234 */
  ingressUrl: string;
  adminUrl: string;
  adminToken: string;
  /** Every line the relay logged, in order (the relay never logs secrets; tests check that). */
  logs: string[];
  /**
   * One management call through the contract (typed input, output checked against its schema);
   * a refusal rejects with the ApiError. Tests of the HTTP transport itself use `api`.
   */
  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>;
  /**
   * A call the test expects the relay to refuse: resolves with the refusal (code, message, path),
   * and fails the test if the call succeeded. The input is loosely typed so that a test can send
   * what the contract's own types would not let through.
   */
  callError<M extends MethodName>(
    method: M,
    input: MethodInput<M> | Record<string, unknown>,
  ): Promise<ApiError>;
  api<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    options?: { token?: string | null; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
  createWebhook(input: MethodInput<'webhooks.create'>): Promise<CreatedWebhook>;
  stop(): Promise<void>;
}

export type CreatedWebhook = MethodOutput<'webhooks.create'>;

/**
 * Deletes every webhook of the default factory, so that a relay shared by a file's tests starts
 * each of them with none, as a fresh relay would (a factory holds 20 live webhooks, and live
 * names are unique).
 */
export async function deleteAllWebhooks(relay: Pick<TestRelay, 'call'>): Promise<void> {
  for (const { uid } of (await relay.call('webhooks.list', {})).items) {
    await relay.call('webhooks.delete', { uid });
  }
}

export function tempDir(prefix = 'hookport-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A real relay: real SQLite file in a fresh data dir, real listeners on free loopback ports. */
export async function startTestRelay(overrides: Partial<CoreConfig> = {}): Promise<TestRelay> {
  const dataDir = overrides.dataDir ?? tempDir();
  const logs: string[] = [];
  const log: Logger = {
    info: (l) => logs.push(l),
    warn: (l) => logs.push(l),
    error: (l) => logs.push(l),
  };
  const core = await startCore({
    dataDir,
    ingress: { host: '127.0.0.1', port: 0 },
    admin: { port: 0 },
    log,
    adminTokenFromEnv: undefined,
    masterKeyFromEnv: undefined,
    // Never a developer's real keychain: keychain tests pass their own store.
    secretBackend: 'file',
    ...overrides,
  });
  const adminToken = core.adminToken.value;
  if (core.adminUrl === null) throw new Error('startTestRelay needs the admin listener');
  const adminUrl = core.adminUrl;

  const api: TestRelay['api'] = async (method, path, body, options = {}) => {
    const token = options.token === undefined ? adminToken : options.token;
    const headers: Record<string, string> = { ...options.headers };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(`${adminUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // Not JSON (e.g. the UI's HTML): keep the text.
    }
    return { status: response.status, body: parsed as never, headers: response.headers };
  };

  const client = new AdminClient(adminUrl, adminToken);
  const call: TestRelay['call'] = (method, input) => client.call(method, input);
  return {
    core,
    dataDir,
    call,
    async callError(method, input) {
      try {
        const output = await client.call(method, input as MethodInput<typeof method>);
        throw new Error(
          `${method} was expected to be refused but answered ${JSON.stringify(output)}`,
        );
      } catch (error) {
        if (error instanceof ApiError) return error;
        throw error;
      }
    },
    ingressUrl: core.ingressListenUrl,
    adminUrl,
    adminToken,
    logs,
    api,
    createWebhook: (input) => call('webhooks.create', input),
    async stop() {
      await core.stop();
      if (!overrides.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** POSTs a delivery the way a sender would. */
export async function postDelivery(
  url: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  body: { delivery_id?: string; error?: { code: string; message: string } };
  headers: Headers;
}> {
  const response = await fetch(url, { method: 'POST', headers, body });
  return {
    status: response.status,
    body: (await response.json()) as never,
    headers: response.headers,
  };
}

export const bearer = (secret: string | null): Record<string, string> => ({
  authorization: `Bearer ${secret ?? ''}`,
});
