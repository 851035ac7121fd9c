import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebhookRecord } from '../store/webhooks.js';
import type { IngressDeps } from './ingress-deps.js';
import { clientAddress } from './steps/client-address.js';
import type { IngressTarget } from './steps/match-path.js';

/**
 * One request to the ingress listener as it moves through the flow's steps (flow.ts): made when
 * it arrives, handed from step to step, filled in by the steps that find something out. A class,
 * with every field set in its constructor, so that every request's attempt has one shape.
 */
export class Attempt {
  readonly receivedAt: number;
  /** The address that keys the budgets (never authentication). */
  readonly client: string;
  /** Set by resolveWebhook, the step every later one comes after. */
  webhook!: WebhookRecord;
  target!: IngressTarget;
  /** The webhook's secret as cached, if the secret store has it (set with the webhook). */
  secret: string | undefined = undefined;
  /**
   * The body, once the first step that needs it has read it (steps/body.ts); null before, and
   * again once it is handed to the writer, so that a request waiting for its commit does not
   * keep it.
   */
  body: Buffer | null = null;
  /** The provider's delivery ID, once its signature held. */
  providerDeliveryId: string | null = null;
  /** A hash of a timestamped signature, the second dedupe key (steps/verify-signature.ts). */
  replayKey: string | undefined = undefined;
  /** The parsed body, for the webhooks whose automations or event type read it; else undefined. */
  payload: unknown = undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly deps: IngressDeps,
  ) {
    this.receivedAt = deps.now();
    this.client = clientAddress(req, deps.trustProxy);
  }
}
