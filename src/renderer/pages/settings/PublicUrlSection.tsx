import { useState, type ReactNode } from 'react';
import type { Settings } from '../../../shared/contract/relay.js';
import { useClient } from '../../app/client-context.js';
import { useFormAction } from '../../app/use-action.js';
import { useToast } from '../../components/toasts.js';
import { SaveRow } from './SaveRow.js';
import { checkPublicUrl } from './settings-check.js';
import { errorAt, TextField, unclaimed } from '../../components/Field.js';

/** The base every ingress URL is shown with; blank means the ingress listener's own address. */
export function PublicUrlSection({
  settings,
  writeBlock,
}: {
  settings: Settings;
  writeBlock: string | null;
}): ReactNode {
  const client = useClient();
  const toast = useToast();
  const [text, setText] = useState(settings.publicUrl ?? '');

  const live = checkPublicUrl(text);
  const {
    onSubmit,
    busy,
    error: refused,
  } = useFormAction(async () => {
    if (live.submit) throw live.submit;
    const publicUrl = text.trim() === '' ? null : text.trim();
    const saved = await client.call('settings.update', { publicUrl });
    toast('success', `Every ingress URL now starts with ${saved.effectivePublicUrl}.`);
  }, text);
  const error = refused ?? live.typing;

  return (
    <section className="settings-section" aria-labelledby="public-url-title">
      <h2 id="public-url-title">Public base URL</h2>
      <p className="effective">
        Ingress URLs are shown as <code>{settings.effectivePublicUrl}/…</code>
        {settings.tunnel !== null && <span className="muted"> (the tunnel&apos;s URL)</span>}
        {settings.publicUrl === null && settings.tunnel === null && (
          <span className="muted"> (the ingress listener&apos;s own address)</span>
        )}
      </p>
      <form className="form settings-form" onSubmit={onSubmit} noValidate>
        <fieldset className="bare" disabled={writeBlock !== null}>
          <TextField
            label="Public base URL"
            hint="The address senders reach the ingress at, e.g. https://hooks.example.com behind a tunnel or proxy. Leave blank to use the ingress listener's own address. Every ingress URL shown follows it at once."
            error={errorAt(error, 'publicUrl')}
            type="text"
            inputMode="url"
            placeholder={settings.publicUrl === null ? settings.effectivePublicUrl : ''}
            value={text}
            onChange={setText}
            spellCheck={false}
          />
          <SaveRow
            what="public base URL"
            busy={busy}
            writeBlock={writeBlock}
            error={unclaimed(error, ['publicUrl'])}
            blocked={live.typing && 'Fix the URL above first.'}
          />
        </fieldset>
      </form>
    </section>
  );
}
