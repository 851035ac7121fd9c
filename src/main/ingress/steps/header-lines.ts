import type { IncomingMessage } from 'node:http';
import type { DistinctHeaders, HeaderReader } from '../schemes/scheme.js';

/**
 * Every line of one header, as `req.headersDistinct[name]` would give it, read off the raw
 * headers: headersDistinct builds an object of every header, and keeps it for as long as the
 * request waits for its commit, where a token webhook's steps read one or two headers.
 */
export function headerLines(req: IncomingMessage, lowerCaseName: string): string[] | undefined {
  let lines: string[] | undefined;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === lowerCaseName.length && raw[i]!.toLowerCase() === lowerCaseName) {
      (lines ??= []).push(raw[i + 1]!);
    }
  }
  return lines;
}

/** Reads a request's headers one at a time, off its raw headers. */
export function rawHeaderReader(req: IncomingMessage): HeaderReader {
  return (lowerCaseName) => {
    const raw = req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) {
      if (raw[i]!.length === lowerCaseName.length && raw[i]!.toLowerCase() === lowerCaseName) {
        return raw[i + 1];
      }
    }
    return undefined;
  };
}

/** Reads headers already gathered by name (a scheme's, a test's). */
export const distinctHeaderReader =
  (headers: DistinctHeaders): HeaderReader =>
  (lowerCaseName) =>
    headers[lowerCaseName]?.[0];
