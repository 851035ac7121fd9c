import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { ApiError } from '../../shared/errors.js';
import type { BrowserSession } from '../client/contract-client.js';
import { ErrorNote } from '../components/ErrorNote.js';
import { toApiError } from './use-call.js';

/** The relay sends a used or unknown login link here (`/login` → `/?signin=link-used`). */
const linkUsed = (): boolean =>
  new URLSearchParams(window.location.search).get('signin') === 'link-used';

/** The browser signs in once with the admin token; a session cookie (HttpOnly) does the rest. */
export function LoginPage({ session }: { session: BrowserSession }): ReactNode {
  const [token, setToken] = useState('');
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    try {
      await session.signIn(token.trim());
      // Without the used link's note in the address.
      window.location.replace(`${window.location.pathname}${window.location.hash}`);
    } catch (failure) {
      setError(toApiError(failure));
      setBusy(false);
    }
  };
  return (
    <main className="centered-panel">
      <h1>Sign in to Hookport</h1>
      {linkUsed() && (
        <p className="warning-note" role="status">
          That login link was already used or is no longer valid: sign in with a token below.
        </p>
      )}
      <p>
        Open the login link that <code>hookport serve</code> printed, or paste a token: the admin
        token (in <code>&lt;data-dir&gt;/admin-token</code>) or one made under Settings → Tokens,
        whose role (manage or view) you then have.
      </p>
      <form onSubmit={(event) => void submit(event)} className="form">
        <label htmlFor={inputId}>Token</label>
        <input
          id={inputId}
          type="password"
          autoComplete="off"
          value={token}
          onChange={(event) => setToken(event.target.value)}
          required
        />
        <ErrorNote error={error} />
        <button type="submit" className="primary" disabled={busy || token.trim() === ''}>
          Sign in
        </button>
      </form>
    </main>
  );
}
