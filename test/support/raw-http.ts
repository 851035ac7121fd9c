import { connect, type Socket } from 'node:net';

/** One HTTP response as read off the wire. */
export interface RawResponse {
  status: number;
  /** Lower-case names; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: string;
}

/** A socket opened to a relay listener, with everything the relay sent on it. */
export interface RawConnection {
  socket: Socket;
  /** Bytes received so far. */
  received(): Buffer;
  /** Resolves when the relay (or the client) has closed the socket; never rejects. */
  closed: Promise<void>;
  /** The complete responses received so far. */
  responses(): RawResponse[];
}

/** Opens a plain TCP connection to the host:port of `baseUrl` (no HTTP client in between). */
export async function openRaw(baseUrl: string): Promise<RawConnection> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect({ host: hostname, port: Number(port) });
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const closed = new Promise<void>((resolve) => {
    socket.on('close', () => resolve());
    socket.on('error', () => resolve());
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const received = (): Buffer => Buffer.concat(chunks);
  return { socket, received, closed, responses: () => parseResponses(received()) };
}

/**
 * Writes `parts` (the exact request bytes) and waits until the relay closes the connection,
 * then returns every response it sent. Requests should say `Connection: close`.
 */
export async function exchangeRaw(
  baseUrl: string,
  parts: Array<string | Buffer>,
): Promise<RawResponse[]> {
  const connection = await openRaw(baseUrl);
  for (const part of parts) connection.socket.write(part);
  await connection.closed;
  return connection.responses();
}

/** The head of a request, CRLF-terminated, headers in the order given (duplicates allowed). */
export function requestHead(
  method: string,
  target: string,
  baseUrl: string,
  headers: Array<[string, string]> = [],
): string {
  const host = new URL(baseUrl).host;
  const lines = [`${method} ${target} HTTP/1.1`, `Host: ${host}`];
  for (const [name, value] of headers) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Parses as many complete HTTP/1.1 responses as `data` holds (Content-Length or chunked). */
export function parseResponses(data: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let offset = 0;
  while (offset < data.length) {
    const headEnd = data.indexOf('\r\n\r\n', offset);
    if (headEnd === -1) break;
    const [statusLine = '', ...headerLines] = data
      .subarray(offset, headEnd)
      .toString('latin1')
      .split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      if (colon > 0)
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let cursor = headEnd + 4;
    let body: Buffer;
    if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const sizeEnd = data.indexOf('\r\n', cursor);
        if (sizeEnd === -1) return responses;
        const size = parseInt(data.subarray(cursor, sizeEnd).toString('latin1'), 16);
        cursor = sizeEnd + 2;
        if (size === 0) {
          cursor += 2;
          break;
        }
        parts.push(data.subarray(cursor, cursor + size));
        cursor += size + 2;
      }
      body = Buffer.concat(parts);
    } else {
      const length = Number(headers['content-length'] ?? 0);
      if (cursor + length > data.length) break;
      body = data.subarray(cursor, cursor + length);
      cursor += length;
    }
    responses.push({ status, headers, body: body.toString('utf8') });
    offset = cursor;
  }
  return responses;
}
