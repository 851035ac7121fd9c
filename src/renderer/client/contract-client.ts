import type { RelayEvent } from '../../shared/contract/events.js';
import type { MethodInput, MethodName, MethodOutput } from '../../shared/contract/index.js';

/**
 * What every page talks to: the management contract, whichever transport carries it. Calls
 * resolve with the contract's output or reject with an ApiError (code, message, path).
 */
export interface ContractClient {
  readonly transport: 'ipc' | 'http';
  /**
   * `signal`: the answer is no longer wanted. The request closes (HTTP) or is left (IPC), and the
   * relay stops a long read (a search's first count) or never begins it; the call rejects with
   * the signal's reason.
   */
  call<M extends MethodName>(
    method: M,
    input: MethodInput<M>,
    options?: { signal?: AbortSignal },
  ): Promise<MethodOutput<M>>;
  /** Live events (new deliveries, run status, changed resources); returns the unsubscribe. */
  subscribe(listener: (event: RelayEvent) => void): () => void;
  /**
   * Only over HTTP: the event stream's connection opening (true) or dropping (false), a hint
   * to ask at once whether the relay still answers rather than at the next read.
   */
  watchStream?(listener: (open: boolean) => void): () => void;
  /** Only over HTTP: the browser signs in once with the admin token (a session cookie follows). */
  readonly session: BrowserSession | null;
}

export interface BrowserSession {
  signIn(token: string): Promise<void>;
  signOut(): Promise<void>;
}
