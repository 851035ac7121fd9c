import type { ReactNode } from 'react';
import type { Settings } from '../../../shared/contract/relay.js';
import { useClient } from '../../app/client-context.js';
import { useAction } from '../../app/use-action.js';
import { ErrorNote } from '../../components/ErrorNote.js';

/** The desktop app's switches (PRODUCT §20): notifications (on by default) and opening at login. */
export function DesktopSection({
  settings,
  writeBlock,
}: {
  settings: Settings;
  writeBlock: string | null;
}): ReactNode {
  const client = useClient();
  const change = useAction(
    async (patch: { desktopNotifications?: boolean; openAtLogin?: boolean }) => {
      await client.call('settings.update', patch);
    },
  );
  const blocked = writeBlock !== null || change.busy;
  return (
    <section className="settings-section" aria-labelledby="desktop-title">
      <h2 id="desktop-title">Desktop app</h2>
      <div className="desktop-switches">
        <p className="check-row">
          <label>
            <input
              type="checkbox"
              checked={settings.desktopNotifications}
              disabled={blocked}
              onChange={(event) => void change.run({ desktopNotifications: event.target.checked })}
            />{' '}
            Notify me when the tunnel goes down or comes back with a new URL, and when deliveries
            were recovered
          </label>
        </p>
        <p className="check-row">
          <label>
            <input
              type="checkbox"
              checked={settings.openAtLogin}
              disabled={blocked}
              onChange={(event) => void change.run({ openAtLogin: event.target.checked })}
            />{' '}
            Open Hookport when I log in
          </label>
        </p>
      </div>
      <ErrorNote error={change.error} />
    </section>
  );
}
