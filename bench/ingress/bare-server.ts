/** (a) The floor: node:http that reads the body and answers 202. Prints `{"url"}` when listening. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let counter = 0;
const server = createServer((req, res) => {
  let size = 0;
  req.on('data', (chunk: Buffer) => (size += chunk.length));
  req.on('end', () => {
    const body = JSON.stringify({ delivery_id: `dlv_${++counter}`, size });
    res.writeHead(202, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  });
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('message', (message) => {
  if (message === 'rss') process.send?.({ rss: process.memoryUsage().rss });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
// The benchmark that started this server is gone (killed): no server outlives it.
process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
