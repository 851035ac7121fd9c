import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { LINGER_MS } from '../ingress/limits.js';

/**
 * Closing a connection whose sender may still be writing. Closed at once (as Node's destroySoon
 * does once the answer is flushed), the kernel answers the sender's next bytes with a reset, and
 * a sender that reads its answer only after writing (many clients, most scripts) loses the
 * answer to that reset: a 401 sent before the body, a 413, a parser's 400. So: send the answer
 * and our end of the connection, keep reading and dropping whatever still arrives, and close
 * once the sender has finished, or after LINGER_MS whatever it is doing.
 */
export function closeGracefully(socket: Socket, lastWords?: string, lingerMs = LINGER_MS): void {
  if (lingering.has(socket)) return;
  lingering.add(socket);
  if (lastWords === undefined) socket.end();
  else socket.end(lastWords);
  // A socket no longer read by Node's HTTP parser (after CONNECT, or a parse error) is read here.
  socket.on('data', drop);
  const close = (): void => {
    socket.destroy();
  };
  socket.once('end', close);
  const timer = setTimeout(close, lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

const lingering = new WeakSet<Socket>();
const drop = (): void => {};

/**
 * Node ends a `Connection: close` exchange with socket.destroySoon(); from then on this socket
 * closes gracefully instead, unless the sender has already finished (then nothing is unread).
 */
export function closeSocketsGracefully(socket: Socket, lingerMs = LINGER_MS): void {
  const destroySoon = socket.destroySoon.bind(socket);
  socket.destroySoon = () => {
    if (socket.readableEnded) destroySoon();
    else closeGracefully(socket, undefined, lingerMs);
  };
}

/**
 * A request answered before its body ended: the rest of the body is read and dropped (never
 * buffered), and once all of it has come a closing connection closes at once.
 */
export function dropUnreadBody(req: IncomingMessage): void {
  if (req.complete) return;
  req.removeAllListeners('data');
  req.once('end', () => {
    if (lingering.has(req.socket)) req.socket.destroy();
  });
  req.resume();
}
