import { useSyncExternalStore } from 'react';
import type { ApiError } from '../../shared/errors.js';

/**
 * Whether the relay answers, as the last calls found. One state for the whole window: every
 * read reports here, the banner shows it, and every read is made again when the relay is back.
 */
export interface ConnectionState {
  /** Null while the relay answers. */
  lost: { error: ApiError; since: number } | null;
  /** Counts reconnections: reads depend on it, so each is made again when the relay is back. */
  epoch: number;
}

let state: ConnectionState = { lost: null, epoch: 0 };
const listeners = new Set<() => void>();

function set(next: ConnectionState): void {
  state = next;
  for (const listener of listeners) listener();
}

/** A call failed because nothing answered (not a refusal: the relay was not there). */
export function reportLost(error: ApiError, now = Date.now()): void {
  if (!state.lost) set({ ...state, lost: { error, since: now } });
}

/** A call was answered: after a loss, that is a reconnection. */
export function reportAnswered(): void {
  if (state.lost) set({ lost: null, epoch: state.epoch + 1 });
}

/** The event stream is back after a drop: events were missed meanwhile, so read everything again. */
export function reportResumed(): void {
  set({ lost: null, epoch: state.epoch + 1 });
}

export const isLost = (error: ApiError): boolean => error.code === 'unavailable';

const subscribe = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function useConnection(): ConnectionState {
  return useSyncExternalStore(subscribe, () => state);
}
