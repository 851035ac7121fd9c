import type { IncomingMessage } from 'node:http';
import { declaredLength } from './declared-length.js';

export type BodyResult =
  | { kind: 'ok'; body: Buffer }
  /** `declared`: the Content-Length as sent, when that is what was past the limit. */
  | { kind: 'too-large'; size: number; declared?: string }
  | { kind: 'aborted' };

/**
 * Reads the raw body up to `limit` bytes and hands `done` the result, once. A declared length
 * over the limit is refused before reading (`done` is called at once); a streamed body stops
 * being read at the chunk that crosses it, so no more than limit + one chunk is ever held. A size
 * past the limit is reported as at most limit + 1. A callback, not a Promise: the caller makes
 * the one Promise its step needs (steps/body.ts).
 */
export function readBody(
  req: IncomingMessage,
  limit: number,
  done: (result: BodyResult) => void,
): void {
  const declared = declaredLength(req, limit);
  if (declared.kind === 'over') {
    done({ kind: 'too-large', size: limit + 1, declared: declared.declared });
    return;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  let settled = false;
  const settle = (result: BodyResult): void => {
    if (settled) return;
    settled = true;
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('close', onClose);
    req.off('error', onClose);
    done(result);
  };
  const onData = (chunk: Buffer): void => {
    total += chunk.length;
    if (total > limit) {
      req.pause();
      settle({ kind: 'too-large', size: limit + 1 });
      return;
    }
    chunks.push(chunk);
  };
  // A body that came in one piece is used as it is: no copy.
  const onEnd = (): void =>
    settle({ kind: 'ok', body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total) });
  const onClose = (): void => {
    if (!req.complete) settle({ kind: 'aborted' });
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('close', onClose);
  req.on('error', onClose);
}
