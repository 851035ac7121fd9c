import { useState } from 'react';
import { ApiError } from '../../../../shared/errors.js';

/**
 * Allow remote signing, offered once the relay refused to sign for a handler that is not on this
 * machine (its sentence says why), and kept on screen while the tester decides.
 */
export function useRemoteSigning(): {
  offered: boolean;
  allowed: boolean;
  setAllowed: (allowed: boolean) => void;
  /** Call with what a send threw: a refusal of remote signing offers the checkbox. */
  noteRefusal: (error: unknown) => void;
} {
  const [offered, setOffered] = useState(false);
  const [allowed, setAllowed] = useState(false);
  return {
    offered,
    allowed,
    setAllowed,
    noteRefusal: (error) => {
      if (error instanceof ApiError && error.path === 'allowRemoteSigning') setOffered(true);
    },
  };
}
