import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface PostResult {
  status: number;
  /** The `Location` of a redirect, which is reported, never followed. */
  location: string | null;
  /** The response body as text, cut at MAX_RESPONSE_BYTES. */
  body: string;
}

/** The relay's answers are tiny; anything longer is not worth printing in full. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** The relay gives a body 30 s to arrive; a little more covers a slow answer. */
export const SEND_TIMEOUT_MS = 35_000;

/**
 * One POST, nothing clever: the body bytes exactly as given, repeated header lines kept apart, no
 * redirects, no retries. A relay may answer (401, 413) before it has read the whole body and then
 * close; the answer wins over the write error that follows.
 */
export function postOnce(
  url: URL,
  headers: Record<string, string[]>,
  body: Buffer,
  timeoutMs = SEND_TIMEOUT_MS,
): Promise<PostResult> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(body.length) },
      // One connection for one request: nothing is pooled, so the process exits when done.
      agent: false,
      timeout: timeoutMs,
    });
    req.on('timeout', () =>
      req.destroy(new Error(`no answer from ${url.host} within ${timeoutMs / 1000} s`)),
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) return;
      // Never the full URL: a url_token URL is a credential.
      reject(new Error(`could not send to ${url.host}: ${error.code ?? error.message}`));
    });
    req.on('response', (res) => {
      answered = true;
      readCapped(res).then(
        (text) =>
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location ?? null,
            body: text,
          }),
        reject,
      );
    });
    req.end(body);
  });
}

function readCapped(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => resolve(Buffer.concat(chunks).toString('utf8'));
    res.on('data', (chunk: Buffer) => {
      if (size < MAX_RESPONSE_BYTES) chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - size));
      size += chunk.length;
    });
    res.on('end', done);
    // A reset after the status line still leaves a status to report.
    res.on('error', done);
    res.on('close', done);
  });
}
