import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { MAX_ATTEMPT_BODY_BYTES } from '../../shared/contract/forwarding.js';
import type { HeaderPairs } from '../store/attempts.js';

/** A handler on a laptop answers in well under this; a hung one must not hold a request open. */
export const FORWARD_TIMEOUT_MS = 15_000;

export interface Answer {
  status: number | null;
  headers: HeaderPairs;
  body: Buffer;
  truncated: boolean;
  durationMs: number;
  /** Why there is no answer; null when there is one. */
  error: string | null;
}

const pairs = (raw: readonly string[]): HeaderPairs => {
  const out: HeaderPairs = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
};

/**
 * One POST to a handler, bounded: at most `timeoutMs` for the whole exchange (connect, answer,
 * body), at most 64 KB of the answer read (the rest is not waited for), redirects reported but
 * never followed, no connection pooling, no retries. Header order and case go out as given.
 */
export function sendBounded(
  url: URL,
  headers: HeaderPairs,
  body: Buffer,
  timeoutMs = FORWARD_TIMEOUT_MS,
): Promise<Answer> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const flat = ['Host', url.host, ...headers.flat(), 'Content-Length', String(body.length)];
  return new Promise((resolve) => {
    let settled = false;
    const settle = (answer: Omit<Answer, 'durationMs'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...answer, durationMs: elapsed() });
    };
    const noAnswer = (error: string): void =>
      settle({ status: null, headers: [], body: Buffer.alloc(0), truncated: false, error });
    let response: IncomingMessage | null = null;
    const chunks: Buffer[] = [];
    let size = 0;
    const answered = (truncated: boolean): void => {
      const res = response!;
      settle({
        status: res.statusCode ?? null,
        headers: pairs(res.rawHeaders),
        body: Buffer.concat(chunks).subarray(0, MAX_ATTEMPT_BODY_BYTES),
        truncated,
        error: null,
      });
    };

    let req: ReturnType<typeof request>;
    try {
      req = request(url, { method: 'POST', headers: flat, agent: false, setHost: false });
    } catch (error) {
      // A stored header Node will not send again (it parsed it once, so this is rare).
      const code = (error as NodeJS.ErrnoException).code ?? 'invalid request';
      resolve({
        status: null,
        headers: [],
        body: Buffer.alloc(0),
        truncated: false,
        error: code,
        durationMs: 0,
      });
      return;
    }
    const timer = setTimeout(() => {
      // An answer whose body drips past the deadline keeps what arrived.
      if (response) answered(true);
      else noAnswer(`timed out after ${timeoutMs / 1000} s`);
      req.destroy();
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (response) answered(false);
      else noAnswer(error.code ?? error.message);
    });
    req.on('response', (res) => {
      response = res;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size > MAX_ATTEMPT_BODY_BYTES) {
          answered(true);
          req.destroy();
        }
      });
      res.on('end', () => answered(false));
      res.on('error', () => answered(false));
      res.on('close', () => answered(false));
    });
    req.end(body);
  });
}
