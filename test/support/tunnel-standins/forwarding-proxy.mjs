// Shared by the stand-in tunnel programs: a loopback HTTP server that forwards every request to
// the relay's ingress, as a tunnel's edge would (method, path, headers and body unchanged).
import { createServer, request } from 'node:http';

export function startForwardingProxy(targetPort) {
  const server = createServer((incoming, outgoing) => {
    const upstream = request(
      {
        host: '127.0.0.1',
        port: targetPort,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, 'x-forwarded-for': '203.0.113.7' },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => {
      outgoing.writeHead(502);
      outgoing.end('the tunnel could not reach the relay');
    });
    incoming.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
