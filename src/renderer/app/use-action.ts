import { useState, type FormEvent } from 'react';
import type { ApiError } from '../../shared/errors.js';
import { toApiError } from './use-call.js';

export interface Action<A extends unknown[]> {
  /** Runs the action; a failure lands in `error` (the API's message, ready to show). */
  run: (...args: A) => Promise<void>;
  busy: boolean;
  error: ApiError | undefined;
}

/**
 * A write the operator starts (Save, Create, Apply): busy while it runs, its error kept. Given
 * the `input` the action sends, the error is shown only while the input is what was refused:
 * an error the operator has already corrected goes away as they type.
 */
export function useAction<A extends unknown[]>(
  action: (...args: A) => Promise<void>,
  input?: unknown,
): Action<A> {
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<{ error: ApiError; input: string }>();
  const inputKey = JSON.stringify(input ?? null);
  const run = async (...args: A): Promise<void> => {
    setBusy(true);
    setRefused(undefined);
    try {
      await action(...args);
    } catch (failure) {
      setRefused({ error: toApiError(failure), input: inputKey });
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error: refused?.input === inputKey ? refused.error : undefined };
}

/** The same for a form: its submit handler keeps the page from reloading and runs the action. */
export function useFormAction(
  action: () => Promise<void>,
  input?: unknown,
): Omit<Action<[]>, 'run'> & { onSubmit: (event: FormEvent) => void } {
  const { run, busy, error } = useAction(action, input);
  return {
    busy,
    error,
    onSubmit: (event) => {
      event.preventDefault();
      void run();
    },
  };
}
