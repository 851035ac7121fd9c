import type { ReactNode } from 'react';
import { useWriteBlock } from '../../app/relay-context.js';
import { onChanged, useCall } from '../../app/use-call.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { AlarmNotificationSection } from './AlarmNotificationSection.js';
import { DefinitionsSection } from './DefinitionsSection.js';
import { ExecutorSection } from './ExecutorSection.js';
import { BlockNote } from '../../components/Field.js';
import { PublicUrlSection } from './PublicUrlSection.js';
import { RetentionSection } from './RetentionSection.js';
import { TokensSection } from './TokensSection.js';
import { TunnelSection } from './TunnelSection.js';
import { DesktopSection } from './DesktopSection.js';
import './settings.css';

/** Relay-wide settings: public base URL, retention, run executor, alarm notifications, tokens, definitions. */
export function SettingsPage(): ReactNode {
  const settings = useCall('settings.get', {}, onChanged('settings'));
  const writeBlock = useWriteBlock();
  const data = settings.data;
  return (
    <div className="settings-page">
      <header className="page-header">
        <h1>Settings</h1>
      </header>
      <BlockNote reason={writeBlock} />
      <ErrorNote error={settings.error} />
      {!data && !settings.error && <p className="loading">Loading settings…</p>}
      {data && (
        // Keyed by what was saved, so a change from anywhere restarts the form from the relay's value.
        <>
          <PublicUrlSection
            key={`url:${data.publicUrl ?? ''}`}
            settings={data}
            writeBlock={writeBlock}
          />
          <TunnelSection
            key={`tunnel:${JSON.stringify(data.tunnel)}`}
            settings={data}
            writeBlock={writeBlock}
          />
          <DesktopSection
            key={`desktop:${data.desktopNotifications}/${data.openAtLogin}`}
            settings={data}
            writeBlock={writeBlock}
          />
          <RetentionSection
            key={`retention:${data.retentionDays}/${data.retentionMinPerWebhook}`}
            settings={data}
            writeBlock={writeBlock}
          />
        </>
      )}
      <ExecutorSection writeBlock={writeBlock} />
      <AlarmNotificationSection writeBlock={writeBlock} />
      <TokensSection />
      <DefinitionsSection writeBlock={writeBlock} />
    </div>
  );
}
