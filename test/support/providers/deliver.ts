import { request } from 'node:http';

export interface DeliveryAttemptResult {
  /** 0 when the relay could not be reached (refused, reset, timed out), as providers record it. */
  statusCode: number;
}

/**
 * POSTs what a provider sends to a hook URL. Every host resolves to 127.0.0.1 (the stand-ins'
 * DNS): a test's "public" URL such as http://relay.example.test:4321 reaches the local relay.
 */
export function postToHook(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<DeliveryAttemptResult> {
  const target = new URL(url);
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: Number(target.port || 80),
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers: { ...headers, host: target.host, 'content-length': String(body.length) },
        timeout: 10_000,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0 }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ statusCode: 0 }));
    req.end(body);
  });
}
