import { request } from 'node:http';
import type { Delivery, DeliveryWithPayload } from '../../../support/deliveries.js';
import type { CreatedWebhook, TestRelay } from '../../../support/relay.js';
import type { ProviderSender } from './senders.js';

export interface Sent {
  status: number;
  body: { delivery_id?: string; error?: { code: string; message: string } };
}

/**
 * POSTs with node:http rather than fetch: an array value goes out as separate header lines (fetch
 * would join them into one), which is how a repeated signature header reaches the relay.
 */
export function post(
  url: string,
  body: Buffer | string,
  headers: Record<string, string | string[]>,
): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, agent: false });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        resolve({
          status,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Sent['body'],
        });
      });
    });
    req.end(body);
  });
}

/** The webhook's newest log entry. */
export async function newestEntry(relay: TestRelay, uid: string): Promise<Delivery> {
  const [entry] = (await relay.call('deliveries.list', { uid, limit: 1 })).items;
  if (!entry) throw new Error(`webhook ${uid} has no log entry`);
  return entry;
}

export function entry(relay: TestRelay, deliveryId: string): Promise<DeliveryWithPayload> {
  return relay.call('deliveries.get', { id: deliveryId });
}

let created = 0;

/** A `signature` webhook for the sender's scheme, holding the sender's secret. */
export function createSignatureWebhook(
  relay: TestRelay,
  sender: ProviderSender,
  extra: Record<string, unknown> = {},
): Promise<CreatedWebhook> {
  created += 1;
  return relay.createWebhook({
    name: `${sender.scheme}-${created}`,
    authMode: 'signature',
    signatureScheme: sender.scheme,
    secret: sender.secret,
    ...(sender.signatureOptions ? { signatureOptions: sender.signatureOptions } : {}),
    ...extra,
  });
}

/** A factory holds at most 20 webhooks: files that make many delete them after each test. */
export async function deleteAllWebhooks(relay: TestRelay): Promise<void> {
  const listed = await relay.call('webhooks.list', {});
  for (const { uid } of listed.items) await relay.call('webhooks.delete', { uid });
}
