import { useEffect, useRef } from 'react';

export const LEAVE_UNSAVED =
  'This automation has unsaved changes. Leave without saving them? They will be lost.';

/**
 * Asks before unsaved edits are lost: a link that leaves the editor (the navigation, a webhook's
 * name, "← Automations") asks first, and so does closing or reloading the page (the browser's
 * own question). Links that stay under `keepHash` (the editor's own sub-routes) pass. Returns a
 * function that lets the next navigation pass without asking (after a save that navigates).
 */
export function useUnsavedGuard(unsaved: boolean, keepHash: string): () => void {
  const state = useRef({ unsaved, keepHash, passing: false });
  useEffect(() => {
    state.current.unsaved = unsaved;
    state.current.keepHash = keepHash;
  }, [unsaved, keepHash]);

  useEffect(() => {
    const onClick = (event: MouseEvent): void => {
      const { unsaved: dirty, keepHash: keep, passing } = state.current;
      if (!dirty || passing || event.defaultPrevented || event.button !== 0) return;
      const link = (event.target as Element | null)?.closest?.('a[href]');
      const href = link?.getAttribute('href');
      if (!href?.startsWith('#') || href === keep || href.startsWith(`${keep}/`)) return;
      if (!window.confirm(LEAVE_UNSAVED)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    const onBeforeUnload = (event: BeforeUnloadEvent): void => {
      if (state.current.unsaved && !state.current.passing) event.preventDefault();
    };
    document.addEventListener('click', onClick, true);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, []);

  return () => {
    state.current.passing = true;
  };
}
