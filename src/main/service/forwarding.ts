import type { Attempt } from '../../shared/contract/forwarding.js';
import type { ParsedInput } from '../../shared/contract/index.js';
import { ApiError } from '../../shared/errors.js';
import { sendsSecretItself } from '../../shared/providers/index.js';
import { buildForwardRequest, redactedForRecord } from '../forward/forward-request.js';
import { sendBounded } from '../forward/send-bounded.js';
import { signingRefusal } from '../forward/signing-policy.js';
import { newAttemptId } from '../ids.js';
import type { AttemptRecord } from '../store/attempts.js';
import type { WebhookRecord } from '../store/webhooks.js';
import type { FullServiceDeps } from './automation-deps.js';
import type { ServiceHandlers } from './handlers.js';
import { requireStoredPayload } from './test-filter.js';
import { iso } from './to-json.js';
import { attemptFor } from './view-redaction.js';

/** 502, 503 and 504 are a proxy saying the handler behind it is down: try again later. */
export const handlerTookIt = (status: number | null): boolean =>
  status !== null && status !== 502 && status !== 503 && status !== 504;

export const attemptJson = (a: AttemptRecord): Attempt => ({
  id: a.id,
  deliveryId: a.deliveryId,
  webhookUid: a.webhookUid,
  url: a.url,
  at: iso(a.at),
  status: a.status,
  headers: a.responseHeaders,
  body: a.responseBody.toString('utf8'),
  bodyTruncated: a.bodyTruncated,
  durationMs: a.durationMs,
  error: a.error,
  edited: a.sentBody !== null,
  sentBody: a.sentBody?.toString('utf8') ?? null,
  signed: a.signed,
  requestHeaders: a.requestHeaders,
  forwarder: a.forwarder,
  delivered: a.delivered,
});

/** The log line: host and path only, since a query string may carry a handler's token. */
const where = (url: URL): string => `${url.protocol}//${url.host}${url.pathname}`;

/** The webhook's secret when this send is to be signed; a clear refusal when it cannot be. */
function signingSecret(
  deps: FullServiceDeps,
  webhook: WebhookRecord | null,
  sign: boolean,
  target: URL,
  allowRemoteSigning: boolean,
): string | undefined {
  if (!sign || !webhook || webhook.authMode !== 'signature') return undefined;
  const refusal = signingRefusal(target, webhook.signatureScheme, allowRemoteSigning);
  if (refusal !== null) {
    throw new ApiError(
      'forbidden',
      refusal,
      sendsSecretItself(webhook.signatureScheme) ? 'sign' : 'allowRemoteSigning',
    );
  }
  const secret = deps.secrets.cachedValue(webhook.factoryId, webhook.secretName);
  if (secret === undefined || secret === '') {
    throw new ApiError(
      'conflict',
      `The secret "${webhook.secretName}" of ${webhook.name} has no value here, so nothing can be signed; send with "sign": false.`,
      'sign',
    );
  }
  return secret;
}

export function forwardingHandlers(
  deps: FullServiceDeps,
): Pick<
  ServiceHandlers,
  'deliveries.forward' | 'deliveries.attempts' | 'deliveries.forwardBacklog'
> {
  // `hookport forward`'s sends per (webhook, URL), one at a time: a forwarder started again reads
  // its place only once the send a killed forwarder left in flight is recorded.
  const forwarderSends = new Map<string, Promise<unknown>>();
  const placeKey = (uid: string, url: string): string => `${uid} ${url}`;
  const oneAtATime = async <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const mine = (forwarderSends.get(key) ?? Promise.resolve()).catch(() => undefined).then(task);
    forwarderSends.set(key, mine);
    try {
      return await mine;
    } finally {
      if (forwarderSends.get(key) === mine) forwarderSends.delete(key);
    }
  };

  return {
    'deliveries.forward': async (input) => {
      const { delivery } = await requireStoredPayload(deps, input.id);
      return input.forwarder
        ? oneAtATime(placeKey(delivery.webhookUid, input.url), () => send(input))
        : send(input);
    },

    'deliveries.attempts': async ({ id }, caller) => {
      if (!(await deps.deliveries.get(id)))
        throw new ApiError('not_found', `No delivery ${id}; it may have been pruned.`);
      const items = (await deps.attempts.ofDelivery(id)).map(attemptJson);
      return { items: items.map((attempt) => attemptFor(caller.role, attempt)) };
    },

    'deliveries.forwardBacklog': async ({ uid, url, after, limit }) => {
      if (!(await deps.webhooks.get(uid))) throw new ApiError('not_found', `No webhook ${uid}.`);
      await forwarderSends.get(placeKey(uid, url))?.catch(() => undefined);
      const place = await deps.attempts.place(uid, url);
      const newest = await deps.scans.newestAcceptedId(uid);
      const from = after ?? place;
      // With no place yet, there is no backlog: the forwarder starts with what arrives next.
      const rows = from === null ? [] : await deps.scans.acceptedAfter(uid, from, limit + 1);
      return {
        place,
        newest,
        items: rows.slice(0, limit).map((r) => ({
          id: r.id,
          receivedAt: iso(r.receivedAt),
          eventType: r.eventType,
          size: r.size,
        })),
        more: rows.length > limit,
      };
    },
  };

  async function send({
    id,
    url,
    sign,
    body: edited,
    forwarder,
    allowRemoteSigning,
  }: ParsedInput<'deliveries.forward'>): Promise<{ attempt: Attempt }> {
    const { delivery, body: stored } = await requireStoredPayload(deps, id);
    const webhook = await deps.webhooks.get(delivery.webhookUid);
    const target = new URL(url);
    const secret = signingSecret(deps, webhook, sign, target, allowRemoteSigning);
    const shape = webhook ?? { authMode: 'token', signatureScheme: null, signatureOptions: null };
    const sentBody = edited === undefined ? null : Buffer.from(edited, 'utf8');
    const at = deps.now();
    const request = buildForwardRequest({
      stored: await deps.deliveries.requestContext(id),
      body: sentBody ?? stored,
      webhook: shape,
      deliveryId: id,
      secret,
      nowMs: at,
    });
    const answer = await sendBounded(target, request.headers, request.body, deps.forwardTimeoutMs);
    const attempt: AttemptRecord = {
      id: newAttemptId(at),
      deliveryId: id,
      webhookUid: delivery.webhookUid,
      url,
      at,
      status: answer.status,
      responseHeaders: redactedForRecord(answer.headers, shape),
      responseBody: answer.body,
      bodyTruncated: answer.truncated,
      durationMs: answer.durationMs,
      error: answer.error,
      sentBody,
      signed: request.signed,
      requestHeaders: redactedForRecord(request.headers, shape),
      forwarder,
      delivered: handlerTookIt(answer.status),
    };
    await deps.attempts.record(attempt);
    deps.events.emit({
      type: 'attempt',
      attempt: {
        id: attempt.id,
        deliveryId: id,
        webhookUid: delivery.webhookUid,
        status: answer.status,
      },
    });
    const outcome = answer.status === null ? `no answer (${answer.error})` : String(answer.status);
    const notes = [edited === undefined ? '' : ' edited', ...request.notes.map((n) => `; ${n}`)];
    deps.log.info(
      `[forward] ${id} → ${where(target)} ${outcome} ${answer.durationMs} ms${notes.join('')}`,
    );
    return { attempt: attemptJson(attempt) };
  }
}
