/** (a) The floor: node:http that reads the body and answers 202. Prints `{"url"}` when listening. */
import { reply, serveBaseline } from './baseline-server.js';

let counter = 0;
serveBaseline((req, res) => {
  let size = 0;
  req.on('data', (chunk: Buffer) => (size += chunk.length));
  req.on('end', () => reply(res, 202, { delivery_id: `dlv_${++counter}`, size }));
});
