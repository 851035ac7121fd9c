import { ServerResponse, createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  CONNECTIONS_CHECK_INTERVAL_MS,
  HEADERS_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  LINGER_MS,
  REQUEST_TIMEOUT_MS,
} from '../ingress/limits.js';
import { closeGracefully, closeSocketsGracefully, dropUnreadBody } from './graceful-close.js';

export interface Listener {
  server: Server;
  port: number;
  host: string;
  /** Stops accepting, lets in-flight requests finish, then closes idle keep-alive sockets. */
  close(): Promise<void>;
}

function onResponseFinish(this: ServerResponse): void {
  dropUnreadBody(this.req);
}

/** What Node's parser refused, as a JSON error body a sender can read. */
const REFUSALS = {
  400: { reason: 'Bad Request', code: 'bad_request', message: 'Malformed HTTP request.' },
  upgrade: {
    reason: 'Bad Request',
    code: 'bad_request',
    message:
      'A request that asks to upgrade the connection cannot have a chunked body here. Send it without Upgrade, or with Content-Length.',
  },
  408: {
    reason: 'Request Timeout',
    code: 'request_timeout',
    message:
      'The request took too long: send the headers within 10 s and the whole request within 30 s.',
  },
  431: {
    reason: 'Request Header Fields Too Large',
    code: 'headers_too_large',
    message: 'The request headers are too large.',
  },
} as const;

/**
 * Node stops parsing a request that asks to upgrade the connection once its headers are in: a
 * chunked body that has not arrived with them is never read, and the request would wait for its
 * deadline. Refused at once instead.
 */
function chunkedUpgrade(req: IncomingMessage): boolean {
  return (
    req.headers.upgrade !== undefined &&
    /\bupgrade\b/i.test(req.headers.connection ?? '') &&
    req.headers['transfer-encoding'] !== undefined
  );
}

function refuseUpgrade(res: ServerResponse): void {
  const { code, message } = REFUSALS.upgrade;
  const body = JSON.stringify({ error: { code, message } });
  res.writeHead(400, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  });
  res.end(body);
}

/** The error Node's own connection check raises for a request past its deadline. */
function timeoutError(): NodeJS.ErrnoException {
  return Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
}

/**
 * A Node HTTP server hardened against slow or malformed senders: headers must arrive within
 * 10 s and the whole request within 30 s, and a request Node's parser refuses (a lying
 * Content-Length, bad chunking) gets a JSON 400 rather than a dropped socket.
 */
export type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/** How long slow senders get (PRODUCT §3); tests of slow senders shorten them. */
export interface Deadlines {
  headersMs: number;
  requestMs: number;
  checkEveryMs: number;
  /** After an answer sent while the sender is still writing: how long its bytes are still read. */
  lingerMs: number;
}

export const DEFAULT_DEADLINES: Deadlines = {
  headersMs: HEADERS_TIMEOUT_MS,
  requestMs: REQUEST_TIMEOUT_MS,
  checkEveryMs: CONNECTIONS_CHECK_INTERVAL_MS,
  lingerMs: LINGER_MS,
};

export async function listen(
  handler: Handler,
  host: string,
  port: number,
  deadlines: Deadlines = DEFAULT_DEADLINES,
): Promise<Listener> {
  const { headersMs, requestMs, checkEveryMs, lingerMs } = deadlines;
  // Requests whose answer is still being written, by socket: a parse error in the bytes that
  // follow a complete request (a Content-Length shorter than the body) must not swallow that
  // request's answer, or a sender would read 400 for a delivery the relay recorded.
  // The response alone (its request is `res.req`): no object per request.
  const answering = new WeakMap<Socket, ServerResponse>();
  const refusing = new WeakSet<Socket>();
  // What each open socket is doing and since when: waiting for a request's headers (req null)
  // or receiving a request. Only read while closing (see close below).
  const phases = new Map<Socket, { since: number; req: IncomingMessage | null }>();
  function onResponseClose(this: ServerResponse): void {
    const { req } = this;
    // A pipelined request on the same socket may already have taken the slot.
    if (answering.get(req.socket) === this) answering.delete(req.socket);
    const phase = phases.get(req.socket);
    if (phase?.req === req) {
      phase.since = Date.now();
      phase.req = null;
    }
  }
  const server = createServer(
    {
      headersTimeout: headersMs,
      requestTimeout: requestMs,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: checkEveryMs,
      maxHeaderSize: 16 * 1024,
    },
    (req, res) => {
      answering.set(req.socket, res);
      const phase = phases.get(req.socket);
      // Written in place, not Object.assign'd from a literal: one object fewer per request.
      if (phase) {
        phase.since = Date.now();
        phase.req = req;
      }
      // The same two functions for every response (`this` is the response), not two closures
      // and two `once` wrappers per request: a response finishes and closes once.
      res.on('close', onResponseClose);
      res.on('finish', onResponseFinish);
      if (chunkedUpgrade(req)) return refuseUpgrade(res);
      void handler(req, res);
    },
  );
  server.on('connection', (socket: Socket) => {
    phases.set(socket, { since: Date.now(), req: null });
    socket.once('close', () => phases.delete(socket));
    closeSocketsGracefully(socket, lingerMs);
  });
  // Node hands CONNECT to this event, and without a listener drops the socket without a word. It
  // goes to the handler like any request (which refuses it), on a response made for it here.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const res = new ServerResponse(req);
    res.assignSocket(socket);
    res.shouldKeepAlive = false;
    res.once('finish', () => closeGracefully(socket, undefined, lingerMs));
    void handler(req, res);
  });
  /**
   * Node stops enforcing headersTimeout and requestTimeout once server.close() is called (it
   * clears its connection-checking interval), so while draining a sender that stalls, or a
   * connection that never sends a byte, would hold the close, and the relay's exit, open for
   * ever. Enforce the same deadlines here: a 408 as Node would send, then the socket is dropped.
   */
  const enforceDeadlines = (): void => {
    server.closeIdleConnections();
    const now = Date.now();
    for (const [socket, { since, req }] of phases) {
      if (req?.complete) continue; // the handler answers it; the drain waits for that
      if (now - since < (req ? requestMs : headersMs)) continue;
      if (refusing.has(socket)) socket.destroy();
      else server.emit('clientError', timeoutError(), socket);
    }
  };
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    if (refusing.has(socket)) return;
    refusing.add(socket);
    const status =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 408
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? 431
          : 400;
    const { reason, code, message } = REFUSALS[status];
    const body = JSON.stringify({ error: { code, message } });
    const refuse = (): void => {
      closeGracefully(
        socket,
        `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        lingerMs,
      );
    };
    const pending = answering.get(socket);
    if (pending?.req.complete && !pending.writableFinished) {
      pending.once('finish', refuse);
      pending.once('close', () => pending.writableFinished || socket.destroy());
      return;
    }
    refuse();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    server,
    port: address.port,
    host,
    close: () =>
      new Promise<void>((resolve) => {
        const draining = setInterval(enforceDeadlines, checkEveryMs);
        server.close(() => {
          clearInterval(draining);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
