import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { contractRequest, contractResponse } from '../../shared/contract/http-request.js';
import {
  type MethodInput,
  type MethodName,
  type MethodOutput,
} from '../../shared/contract/index.js';
import { ApiError } from '../../shared/errors.js';
import { DEFAULT_ADMIN_URL, defaultDataDir } from '../config.js';
import { closedFirst } from '../store/asker-gone.js';
import { UsageError } from './usage.js';

/** Where a CLI command finds the relay, like kubectl does: flags, then environment, then defaults. */
export interface AdminTarget {
  /** `--admin-url`, default http://127.0.0.1:8788. */
  adminUrl?: string | undefined;
  /** `--data-dir`, else HOOKPORT_DATA_DIR, else ~/.hookport: where `admin-token` is read from. */
  dataDir?: string | undefined;
}

/** HOOKPORT_ADMIN_TOKEN wins; otherwise `<data-dir>/admin-token` (PRODUCT.md §12). */
export function resolveAdminToken(target: AdminTarget, env: NodeJS.ProcessEnv): string {
  const fromEnv = env.HOOKPORT_ADMIN_TOKEN?.trim();
  if (fromEnv) return fromEnv;
  const dataDir = resolve(target.dataDir ?? env.HOOKPORT_DATA_DIR ?? defaultDataDir());
  const file = join(dataDir, 'admin-token');
  let token: string;
  try {
    token = readFileSync(file, 'utf8').trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(
      `No admin token: set HOOKPORT_ADMIN_TOKEN, or point --data-dir at the relay's data directory (${file}: ${code}).`,
    );
  }
  if (token === '') throw new UsageError(`${file} is empty; set HOOKPORT_ADMIN_TOKEN instead.`);
  return token;
}

function normalizeBaseUrl(raw: string): string {
  if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) {
    throw new UsageError(
      `--admin-url must be an http(s) URL such as ${DEFAULT_ADMIN_URL}, not "${raw}"`,
    );
  }
  return raw.replace(/\/+$/, '');
}

const CLOSED_UNDERNEATH = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** fetch's error for a connection that closed before any answer (not one that was refused). */
function closedUnderneath(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } }).cause?.code;
  return typeof code === 'string' && CLOSED_UNDERNEATH.has(code);
}

/**
 * A typed client of the management API over HTTP, derived from the contract: the route, the
 * method and the output schema of each call come from `contract`, never restated here.
 */
export class AdminClient {
  readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly token: string,
  ) {
    this.baseUrl = normalizeBaseUrl(baseUrl);
  }

  static fromTarget(target: AdminTarget, env: NodeJS.ProcessEnv = process.env): AdminClient {
    return new AdminClient(target.adminUrl ?? DEFAULT_ADMIN_URL, resolveAdminToken(target, env));
  }

  /**
   * The relay's event stream (server-sent events), as the UI reads it; the caller reads the body
   * and aborts with `signal`. Rejects with the same "cannot reach" error as `call`.
   */
  async events(signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}/api/events`, {
        headers: { authorization: `Bearer ${this.token}`, accept: 'text/event-stream' },
        redirect: 'manual',
        signal,
      });
    } catch (error) {
      throw this.unreachable(error);
    }
    if (response.status !== 200 || !response.body) {
      throw ApiError.fromBody(await response.json().catch(() => null), response.status);
    }
    return response.body;
  }

  private unreachable(error: unknown): ApiError {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? 'unreachable';
    return new ApiError(
      'unavailable',
      `Cannot reach the relay at ${this.baseUrl} (${cause}). Is \`hookport serve\` running? Use --admin-url to point elsewhere.`,
    );
  }

  /** `gone`: the request is closed when it aborts (the relay then stops a slow read). */
  async call<M extends MethodName>(
    name: M,
    input: MethodInput<M>,
    gone?: AbortSignal,
  ): Promise<MethodOutput<M>> {
    const request = contractRequest(name, input);
    const send = (): Promise<Response> =>
      fetch(this.baseUrl + request.pathAndQuery, {
        method: request.method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: request.body,
        redirect: 'manual',
        ...(gone ? { signal: gone } : {}),
      });
    let response: Response;
    try {
      response = await send().catch((error: unknown) => {
        // A kept-alive connection the relay closed as this read went out (its idle timeout; fetch
        // does not send again, nodejs/undici#3492): a read is safe to send once more. A write is
        // not: the relay may have done it.
        if (request.method === 'GET' && closedUnderneath(error)) return send();
        throw error;
      });
    } catch (error) {
      if (gone?.aborted) throw closedFirst();
      throw this.unreachable(error);
    }
    return contractResponse(name, response.status, await response.text());
  }
}
