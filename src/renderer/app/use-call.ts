import { useCallback, useEffect, useRef, useState } from 'react';
import type { RelayEvent } from '../../shared/contract/events.js';
import type { MethodInput, MethodName, MethodOutput } from '../../shared/contract/index.js';
import { ApiError } from '../../shared/errors.js';
import { useClient, useRelayEvents } from './client-context.js';
import { takeFirstRead } from './first-reads.js';
import { isLost, reportAnswered, reportLost, useConnection } from './connection.js';

const EVENT_RELOAD_MS = 300;
/** For reads that aggregate the whole log (counts, sparklines): at most one every 2 s under load. */
export const AGGREGATE_RELOAD_MS = 2_000;

export interface CallState<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError('internal', error instanceof Error ? error.message : String(error));
}

/**
 * Reads a contract method and keeps the answer fresh: again when the input changes, when
 * `reloadOn` says a live event concerns it, and on `reload()`. `null` input reads nothing.
 */
export function useCall<M extends MethodName>(
  method: M,
  input: MethodInput<M> | null,
  reloadOn?: (event: RelayEvent) => boolean,
  /** How long a burst of events is gathered into one reload (longer for whole-log aggregates). */
  eventDelayMs = EVENT_RELOAD_MS,
): CallState<MethodOutput<M>> {
  const client = useClient();
  const [generation, setGeneration] = useState(0);
  const [result, setResult] = useState<{
    key: string;
    generation: number;
    data?: MethodOutput<M>;
    error?: ApiError;
  }>();
  const key = input === null ? null : JSON.stringify(input);
  // Read again when the relay is back after it stopped answering.
  const { epoch } = useConnection();

  useEffect(() => {
    if (key === null) return;
    let current = true;
    const parsed = JSON.parse(key) as MethodInput<M>;
    (takeFirstRead(client, method, parsed) ?? client.call(method, parsed)).then(
      (data) => {
        reportAnswered();
        if (current) setResult({ key, generation, data });
      },
      (failure: unknown) => {
        const error = toApiError(failure);
        if (isLost(error)) reportLost(error);
        else reportAnswered();
        if (!current) return;
        // While the relay is away, what was read stays on screen (the banner says it is old).
        setResult((last) =>
          isLost(error) && last?.key === key && last.data !== undefined
            ? { ...last, generation }
            : { key, generation, error },
        );
      },
    );
    return () => {
      current = false;
    };
  }, [client, method, key, generation, epoch]);

  // A reload keeps showing what was read for the same input until the new answer arrives.
  const mine = result !== undefined && result.key === key ? result : undefined;
  const data = mine?.data;
  const error = mine?.error;
  const loading = key !== null && (mine === undefined || mine.generation !== generation);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  // A burst of deliveries is one reload a moment later, not one read per event.
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current);
    },
    [],
  );
  useRelayEvents((event) => {
    if (!reloadOn?.(event) || pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      reload();
    }, eventDelayMs);
  });
  return { data, error, loading, reload };
}

/** Reload when a resource of this kind changed anywhere (another window, the CLI, a sync). */
export const onChanged =
  (...resources: Extract<RelayEvent, { type: 'changed' }>['resource'][]) =>
  (event: RelayEvent): boolean =>
    event.type === 'changed' && resources.includes(event.resource);
