import { useState, type ReactNode } from 'react';
import type { Settings } from '../../../shared/contract/relay.js';
import type { TunnelTest } from '../../../shared/contract/tunnel.js';
import { useClient } from '../../app/client-context.js';
import { useAction, useFormAction } from '../../app/use-action.js';
import { CopyButton } from '../../components/CopyButton.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { errorAt, TextField, unclaimed } from '../../components/Field.js';
import { useToast } from '../../components/toasts.js';
import { SaveRow } from './SaveRow.js';
import { choiceOf, draftOf, KIND_HINT, KIND_TEXT, type TunnelFormKind } from './tunnel-form.js';

/**
 * Settings → Public URL → Tunnel (PRODUCT §18): none, or a tunnel the relay starts, watches and
 * restarts; Test starts one once and shows its URL or what went wrong, with the fix.
 */
export function TunnelSection({
  settings,
  writeBlock,
}: {
  settings: Settings;
  writeBlock: string | null;
}): ReactNode {
  const client = useClient();
  const toast = useToast();
  const [draft, setDraft] = useState(() => draftOf(settings.tunnel));
  const [tested, setTested] = useState<TunnelTest | null>(null);
  const set = (change: Partial<typeof draft>): void => {
    setDraft({ ...draft, ...change });
    setTested(null);
  };
  const choice = choiceOf(draft);

  const save = useFormAction(async () => {
    const saved = await client.call('settings.update', { tunnel: choice });
    toast(
      'success',
      saved.tunnel
        ? 'The tunnel is starting; the status line shows its URL once it is up.'
        : 'No tunnel runs now.',
    );
  }, choice);
  const test = useAction(async () => {
    if (!choice) return;
    setTested(null);
    setTested(await client.call('tunnel.test', choice));
  }, choice);

  return (
    <section className="settings-section" aria-labelledby="tunnel-title">
      <h2 id="tunnel-title">Tunnel</h2>
      <p className="effective">
        A public URL from this machine: the relay starts the tunnel, restarts it when it stops, and
        shows every ingress URL with its address. Only the ingress is exposed, never this admin
        page.
      </p>
      <form className="form settings-form" onSubmit={save.onSubmit} noValidate>
        <fieldset className="bare" disabled={writeBlock !== null}>
          <fieldset>
            <legend>Tunnel</legend>
            <div className="radio-row">
              {(Object.keys(KIND_TEXT) as TunnelFormKind[]).map((kind) => (
                <label key={kind}>
                  <input
                    type="radio"
                    name="tunnel-kind"
                    checked={draft.kind === kind}
                    onChange={() => set({ kind })}
                  />{' '}
                  {KIND_TEXT[kind]}
                </label>
              ))}
            </div>
            <p className="hint">{KIND_HINT[draft.kind]}</p>
          </fieldset>
          {draft.kind === 'ngrok' && (
            <TextField
              label="Reserved domain (optional)"
              hint="A domain reserved in your ngrok account, e.g. hooks-acme.ngrok.app."
              error={errorAt(save.error, 'tunnel.domain')}
              value={draft.domain}
              onChange={(domain) => set({ domain })}
              spellCheck={false}
            />
          )}
          {draft.kind === 'ssh' && (
            <TextField
              label="Destination"
              hint="What follows ssh -R: user@host and any ssh options."
              error={errorAt(save.error, 'tunnel.kind')}
              value={draft.destination}
              onChange={(destination) => set({ destination })}
              placeholder="nokey@localhost.run"
              spellCheck={false}
            />
          )}
          {draft.kind === 'command' && (
            <TextField
              label="Command"
              hint="The program and its arguments; {port} is the ingress port."
              error={errorAt(save.error, 'tunnel.kind')}
              value={draft.command}
              onChange={(command) => set({ command })}
              placeholder="bore local {port} --to bore.pub"
              spellCheck={false}
            />
          )}
          <SaveRow
            what="tunnel"
            busy={save.busy}
            writeBlock={writeBlock}
            error={unclaimed(save.error, ['tunnel.domain', 'tunnel.kind'])}
          >
            {choice && (
              <button type="button" disabled={test.busy} onClick={() => void test.run()}>
                {test.busy ? 'Testing…' : 'Test'}
              </button>
            )}
          </SaveRow>
          <ErrorNote error={test.error} />
          {tested?.ok && tested.url && (
            <p className="tunnel-test" role="status">
              The tunnel came up at <code>{tested.url}</code>{' '}
              <CopyButton value={tested.url} label="Copy the tested URL" />
            </p>
          )}
          {tested && !tested.ok && (
            <p className="error-note tunnel-test" role="alert">
              {tested.error}
            </p>
          )}
        </fieldset>
      </form>
    </section>
  );
}
