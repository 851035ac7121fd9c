import type { IncomingMessage } from 'node:http';
import { newDeliveryId, newRunId } from '../../ids.js';
import type { AcceptItem } from '../../store/delivery-batch.js';
import type { Attempt } from '../attempt.js';
import { describeOutcome, logDelivery } from '../delivery-line.js';
import type { DeliverySeen } from '../ingress-deps.js';
import { replyAccepted } from '../reply.js';
import { deliveryEventType } from './event-type.js';
import { rawHeaderReader } from './header-lines.js';
import { deliveryIdentity } from './identity.js';
import { requestContext } from './request-context.js';
import type { Step, Verdict } from './step.js';
import { acceptedSummary } from './summary.js';

/**
 * What an automation's filters see of the request. The headers object is built only for an
 * automation that filters on headers. A class, not an object literal with a getter: each such
 * literal gets a hidden class of its own, kept in old space, which holds the getter's closure and
 * with it the whole request past every young-generation collection (measured: nearly every
 * accepted request's objects were promoted, and each young collection took 0.9 ms, not 0.5).
 */
class SeenOnRequest implements DeliverySeen {
  constructor(
    private readonly req: IncomingMessage,
    readonly eventType: string | null,
  ) {}

  get headers(): DeliverySeen['headers'] {
    return this.req.headersDistinct;
  }
}

/**
 * What to commit: the identity, the event type, the runs to queue, the request as the log keeps
 * it. The parsed payload and the body are let go here: requests waiting for their commit do not
 * keep (and promote) them.
 */
function acceptItem(attempt: Attempt, body: Buffer): AcceptItem {
  const { req, deps, webhook, receivedAt, payload } = attempt;
  attempt.body = null;
  attempt.payload = undefined;
  const id = newDeliveryId(receivedAt);
  // The steps read a header or two; the object of every header is built only for an automation
  // that filters on headers.
  const header = rawHeaderReader(req);
  const identity = deliveryIdentity(
    header,
    body,
    webhook.deliveryIdHeader,
    attempt.providerDeliveryId,
  );
  const eventType = deliveryEventType(webhook, header, payload);
  return {
    id,
    webhookUid: webhook.uid,
    receivedAt,
    body,
    identity: identity.identity,
    identitySource: identity.source,
    clientAddress: attempt.client,
    runs: deps.planRuns(
      webhook,
      id,
      payload,
      () => newRunId(receivedAt),
      new SeenOnRequest(req, eventType),
    ),
    request: requestContext(attempt),
    eventType,
    // Always present (undefined when unsigned): one object shape for every accepted request.
    signatureKey: attempt.replayKey,
    summary: acceptedSummary(webhook, eventType, payload),
  };
}

/**
 * PRODUCT §3 steps 8–9: the delivery (or its duplicate's entry) written in one transaction with
 * its runs, then the 202 once that is durable, and its line in the relay's output.
 */
export const accept: Step = (attempt) => {
  const item = acceptItem(attempt, attempt.body!);
  const { id } = item;
  const bytes = item.body.length;
  return attempt.deps.writer.accept(item).then((outcome): Verdict => {
    const { deps, webhook } = attempt;
    const note = describeOutcome(outcome);
    logDelivery(deps.log, 202, outcome.label, webhook.uid, id, bytes, note, attempt.client);
    replyAccepted(attempt.res, id);
    return 'answered';
  });
};
