import { useState, type ReactNode } from 'react';
import {
  DEFAULT_API_BASE_URLS,
  LINK_KINDS,
  PROVIDER_NAMES,
  type LinkKind,
} from '../../../shared/contract/links.js';
import { useClient } from '../../app/client-context.js';
import { useFormAction } from '../../app/use-action.js';
import { useCall } from '../../app/use-call.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { errorAt, TextField } from '../../components/Field.js';
import { useToast } from '../../components/toasts.js';
import { LINK_FORM_WORDS, likelyKind } from './link-form-words.js';
import { partsFromPaste, targetOf, type TargetParts } from './link-target.js';
import { LinkTokenPicker, noTokenYet, type TokenChoice } from './LinkTokenPicker.js';
import type { Webhook } from './types.js';

/** Refusals shown beside their field (the rest above the buttons). */
const FIELD_PATHS = ['target', 'tokenSecretName', 'name', 'value', 'apiBaseUrl'];

/** The link form (PRODUCT §19): the provider's own fields, the token's team secret, the switches. */
export function LinkForm({ webhook, onDone }: { webhook: Webhook; onDone: () => void }): ReactNode {
  const client = useClient();
  const toast = useToast();
  const secrets = useCall('secrets.list', { factory: webhook.factory });
  const [kind, setKind] = useState<LinkKind>(likelyKind(webhook.signatureScheme));
  const [parts, setParts] = useState<TargetParts>({ place: '', hookId: '' });
  const [token, setToken] = useState<TokenChoice>({
    existing: '',
    isNew: false,
    newName: '',
    newValue: '',
  });
  const [apiBaseUrl, setApiBaseUrl] = useState('');
  const [keepPointed, setKeepPointed] = useState(true);
  const [recover, setRecover] = useState(true);
  const words = LINK_FORM_WORDS[kind];
  const teamSecrets = secrets.data?.items ?? [];
  // A new user has no team secret yet: the picker starts at "paste the token".
  const choice = {
    ...token,
    isNew:
      token.isNew || (secrets.data !== undefined && !token.existing && noTokenYet(teamSecrets)),
  };
  const suggestedName = `${kind}-token`;
  const target = targetOf(kind, parts);
  const { onSubmit, busy, error } = useFormAction(async () => {
    let tokenSecretName = choice.existing;
    if (choice.isNew) {
      tokenSecretName = choice.newName.trim() || suggestedName;
      await client.call('secrets.create', {
        factory: webhook.factory,
        name: tokenSecretName,
        value: choice.newValue,
      });
      // Stored: a retry after a refused link must not store it again.
      setToken({ existing: tokenSecretName, isNew: false, newName: '', newValue: '' });
      secrets.reload();
    }
    await client.call('links.put', {
      uid: webhook.uid,
      kind,
      target,
      tokenSecretName,
      ...(apiBaseUrl.trim() ? { apiBaseUrl: apiBaseUrl.trim() } : {}),
      keepPointed,
      recover,
    });
    toast('success', `Linked to ${PROVIDER_NAMES[kind]} ${target}.`);
    onDone();
  }, [kind, target, choice, apiBaseUrl, keepPointed, recover]);
  const onPlace = (text: string) =>
    setParts(partsFromPaste(kind, text) ?? { ...parts, place: text });
  const targetError = errorAt(error, 'target');
  const besideAField = FIELD_PATHS.some((path) => errorAt(error, path));
  return (
    <form className="form link-form" onSubmit={onSubmit} noValidate aria-label="Link to a provider">
      <label>
        Provider{' '}
        <select
          aria-label="Provider"
          value={kind}
          onChange={(event) => setKind(event.target.value as LinkKind)}
        >
          {LINK_KINDS.map((k) => (
            <option key={k} value={k}>
              {PROVIDER_NAMES[k]}
            </option>
          ))}
        </select>
      </label>
      <TextField
        label={words.place.label}
        hint={words.place.hint}
        error={words.hookId ? undefined : targetError}
        value={parts.place}
        onChange={onPlace}
        spellCheck={false}
      />
      {words.hookId && (
        <TextField
          label="Hook ID"
          hint={words.hookId.hint}
          error={targetError}
          value={parts.hookId}
          onChange={(hookId) => setParts({ ...parts, hookId })}
          inputMode="numeric"
          spellCheck={false}
        />
      )}
      <LinkTokenPicker
        choice={choice}
        onChange={(change) => setToken({ ...choice, ...change })}
        secrets={teamSecrets}
        hint={words.token}
        suggestedName={suggestedName}
        error={error}
      />
      <TextField
        label="API base URL"
        hint={`Blank: ${DEFAULT_API_BASE_URLS[kind]}. ${words.selfHosted}`}
        error={errorAt(error, 'apiBaseUrl')}
        value={apiBaseUrl}
        onChange={setApiBaseUrl}
        spellCheck={false}
      />
      <label>
        <input
          type="checkbox"
          checked={keepPointed}
          onChange={(event) => setKeepPointed(event.target.checked)}
        />{' '}
        Keep pointed: set the hook&apos;s URL whenever this webhook&apos;s ingress URL changes
      </label>
      <label>
        <input
          type="checkbox"
          checked={recover}
          onChange={(event) => setRecover(event.target.checked)}
        />{' '}
        Recover: ask the provider to deliver again what failed to arrive
      </label>
      <ErrorNote error={besideAField ? undefined : error} />
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Checking…' : 'Link'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
