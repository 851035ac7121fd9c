/** A delivery the relay answered 202 to: from then on it must never be lost. */
export interface Acknowledged {
  id: string;
  body: string;
}

export interface SenderLoad {
  acknowledged: Acknowledged[];
  /** Every HTTP status seen, by status. */
  statuses: Map<number, number>;
  /** Requests that ended without any answer (the relay went away mid-request). */
  failures: number;
  /** Resolves when every sender has stopped. */
  done: Promise<void>;
  stop(): void;
}

/**
 * Concurrent senders, one per URL, each posting distinct bodies (some kilobytes long, with
 * non-ASCII text) back to back until it is stopped, is refused (429), or loses the relay.
 * `tag` goes into every body, so that loads sent at once to the same webhooks never repeat a body.
 */
export function startSenders(
  targets: Array<{ url: string; secret: string }>,
  { tag }: { tag?: string } = {},
): SenderLoad {
  const load: Omit<SenderLoad, 'done' | 'stop'> = {
    acknowledged: [],
    statuses: new Map(),
    failures: 0,
  };
  let stopped = false;
  const send = async ({ url, secret }: { url: string; secret: string }, sender: number) => {
    for (let seq = 0; !stopped; seq++) {
      const body = JSON.stringify({
        ...(tag === undefined ? {} : { tag }),
        sender,
        seq,
        note: 'caf\u00e9 \u2603 \u{1F680}',
        padding: 'x'.repeat((sender * 977 + seq * 131) % 8_192),
      });
      let status: number;
      let parsed: { delivery_id?: string };
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}` },
          body,
        });
        status = response.status;
        parsed = (await response.json()) as { delivery_id?: string };
      } catch {
        load.failures++;
        return;
      }
      load.statuses.set(status, (load.statuses.get(status) ?? 0) + 1);
      if (status === 202 && parsed.delivery_id)
        load.acknowledged.push({ id: parsed.delivery_id, body });
      if (status !== 202) return;
    }
  };
  const done = Promise.all(targets.map((target, i) => send(target, i))).then(() => undefined);
  return Object.assign(load, { done, stop: () => (stopped = true) });
}
