import { request, type IncomingHttpHeaders } from 'node:http';

export interface PlainResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A request through node:http, which sends exactly the headers given — including the `Host`
 * and `Origin` a browser or an attacker's page would send, which fetch() may not let a test set.
 * For event streams, `untilHeaders` resolves on the status line and closes the connection.
 */
export function httpRequest(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    untilHeaders?: boolean;
  } = {},
): Promise<PlainResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        if (options.untilHeaders) {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
          res.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * A POST with its header lines exactly as given (order, case, repeats, bytes), as a real sender's
 * stack writes them, after a Host line; resolves with the status and the delivery ID answered.
 */
export function postRawHeaders(
  url: string,
  pairs: Array<[string, string]>,
  body: string,
): Promise<{ status: number; deliveryId: string | undefined }> {
  const flat = [['Host', new URL(url).host], ...pairs].flat();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: flat, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          delivery_id?: string;
        };
        resolve({ status: res.statusCode ?? 0, deliveryId: parsed.delivery_id });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
