import { useState, type ReactNode } from 'react';
import { useClient } from './client-context.js';

/**
 * Sign out, in the navigation: ends this browser's session on the relay (the cookie goes with
 * it) and shows the sign-in form. The desktop app has no session, so no button.
 */
export function SignOutButton(): ReactNode {
  const { session } = useClient();
  const [busy, setBusy] = useState(false);
  if (!session) return null;
  const signOut = async (): Promise<void> => {
    setBusy(true);
    try {
      await session.signOut();
    } finally {
      // Whatever the answer, the page starts again from the relay's view of this browser.
      window.location.reload();
    }
  };
  return (
    <button type="button" className="nav-sign-out" disabled={busy} onClick={() => void signOut()}>
      Sign out
    </button>
  );
}
