import { useState, type FormEvent } from 'react';
import type { ApiError } from '../../shared/errors.js';
import { toApiError } from './use-call.js';

export interface Action<A extends unknown[]> {
  /** Runs the action; a failure lands in `error` (the API's message, ready to show). */
  run: (...args: A) => Promise<void>;
  busy: boolean;
  error: ApiError | undefined;
}

/** A write the operator starts (Save, Create, Apply): busy while it runs, its error kept. */
export function useAction<A extends unknown[]>(action: (...args: A) => Promise<void>): Action<A> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const run = async (...args: A): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      await action(...args);
    } catch (failure) {
      setError(toApiError(failure));
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error };
}

/** The same for a form: its submit handler keeps the page from reloading and runs the action. */
export function useFormAction(
  action: () => Promise<void>,
): Omit<Action<[]>, 'run'> & { onSubmit: (event: FormEvent) => void } {
  const { run, busy, error } = useAction(action);
  return {
    busy,
    error,
    onSubmit: (event) => {
      event.preventDefault();
      void run();
    },
  };
}
