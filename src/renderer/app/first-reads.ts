import { contractRequest, contractResponse } from '../../shared/contract/http-request.js';
import type { MethodInput, MethodName, MethodOutput } from '../../shared/contract/index.js';
import type { ContractClient } from '../client/contract-client.js';
import { DELIVERY_PAGE_SIZE, takeEarlyFetch } from '../boot/early-fetches.js';

export { DELIVERY_PAGE_SIZE };

/** A read started this long ago is stale: the page asks again. */
const FRESH_MS = 10_000;

interface Started {
  answer: Promise<unknown>;
  at: number;
}

const started = new Map<string, Started>();
const keyOf = (method: string, input: unknown): string => `${method} ${JSON.stringify(input)}`;

/** The boot script's GET of this call, checked against the contract here; or a new call. */
function answerOf<M extends MethodName>(
  client: ContractClient,
  method: M,
  input: MethodInput<M>,
): Promise<MethodOutput<M>> {
  const early =
    client.transport === 'http'
      ? takeEarlyFetch(contractRequest(method, input).pathAndQuery)
      : undefined;
  if (!early) return client.call(method, input);
  return early.then(({ status, text }) => contractResponse(method, status, text));
}

/**
 * The reads the first screen of a route waits on (who is signed in, the factory, and for a
 * webhook's page its list and log), started before React renders: otherwise each waits for the
 * page's chunk and the read before it, one after another. Each is taken once, by its reader.
 */
export function startFirstReads(client: ContractClient, route: string[]): void {
  const [section = 'webhooks', uid] = route;
  const start = <M extends MethodName>(method: M, input: MethodInput<M>): void => {
    const answer = answerOf(client, method, input);
    // Whoever takes it handles a failure; one never taken must not be reported as unhandled.
    answer.catch(() => undefined);
    started.set(keyOf(method, input), { answer, at: Date.now() });
  };
  start('relay.status', {});
  start('factories.list', {});
  if (section !== 'webhooks') return;
  start('webhooks.list', {});
  if (uid) start('deliveries.list', { uid, limit: DELIVERY_PAGE_SIZE });
}

/**
 * The answer of a read the entry script started with exactly this input, once, while fresh;
 * undefined otherwise. A failed one is read again (it may have raced the sign-in).
 */
export function takeFirstRead<M extends MethodName>(
  client: ContractClient,
  method: M,
  input: MethodInput<M>,
): Promise<MethodOutput<M>> | undefined {
  const key = keyOf(method, input);
  const read = started.get(key);
  if (!read) return undefined;
  started.delete(key);
  if (Date.now() - read.at > FRESH_MS) return undefined;
  return (read.answer as Promise<MethodOutput<M>>).catch(() => client.call(method, input));
}
