import { useId, type ReactNode } from 'react';
import { routeHref } from '../../app/router.js';
import { useCall } from '../../app/use-call.js';
import type { ApiError } from '../../../shared/errors.js';
import { errorFor, FieldError } from './FieldError.js';
import {
  generatedSecret,
  relayMayGenerateSecret,
  signingSecretHint,
  weInventSecret,
} from './signing-secret-words.js';

export interface SecretDraft {
  source: 'new' | 'existing';
  /** New secret: its name (blank lets the relay pick webhook-<name>). */
  newName: string;
  /** Existing team secret: its name. */
  existingName: string;
  /** Signature mode with a new secret: the provider's signing secret. */
  signingSecret: string;
}

/**
 * Where the webhook's credential lives: a new team secret (generated, or the provider's signing
 * secret) or an existing one, whose value is then never shown.
 */
export function SecretFields({
  draft,
  onChange,
  webhookName,
  signatureScheme,
  managed,
  error,
}: {
  draft: SecretDraft;
  onChange: (change: Partial<SecretDraft>) => void;
  webhookName: string;
  /** null unless the mode is `signature`. */
  signatureScheme: string | null;
  managed: boolean;
  error: ApiError | undefined;
}): ReactNode {
  const id = useId();
  const secrets = useCall('secrets.list', {});
  const nameError = errorFor(error, 'secretName');
  const secretError = errorFor(error, 'secret');
  const suggested = `webhook-${webhookName.trim() || '<name>'}`;
  const source = managed ? 'existing' : draft.source;
  const teamSecrets = secrets.data?.items ?? [];
  return (
    <>
      {signatureScheme !== null && source === 'new' && (
        <>
          <label htmlFor={`${id}-signing`}>Signing secret</label>
          <div className="input-with-action">
            <input
              id={`${id}-signing`}
              value={draft.signingSecret}
              autoComplete="off"
              spellCheck={false}
              placeholder={relayMayGenerateSecret(signatureScheme) ? 'blank: generate one' : ''}
              aria-invalid={secretError ? true : undefined}
              aria-describedby={`${id}-signing-hint ${id}-signing-error`}
              onChange={(event) => onChange({ signingSecret: event.target.value })}
            />
            {weInventSecret(signatureScheme) && (
              <button type="button" onClick={() => onChange({ signingSecret: generatedSecret() })}>
                Generate
              </button>
            )}
          </div>
          <FieldError id={`${id}-signing-error`} error={secretError} />
          <p id={`${id}-signing-hint`} className="hint">
            {signingSecretHint(signatureScheme)}
          </p>
        </>
      )}
      <fieldset>
        <legend>Secret name</legend>
        {managed ? (
          <p className="hint">
            This factory is managed by definition files: the webhook must name an existing team
            secret. Create one on the <a href={routeHref('secrets')}>Secrets page</a> first if
            needed.
          </p>
        ) : (
          <div className="radio-row" role="radiogroup" aria-label="Secret">
            <label>
              <input
                type="radio"
                name={`${id}-source`}
                checked={source === 'new'}
                onChange={() => onChange({ source: 'new' })}
              />{' '}
              New secret
            </label>
            <label>
              <input
                type="radio"
                name={`${id}-source`}
                checked={source === 'existing'}
                onChange={() => onChange({ source: 'existing' })}
              />{' '}
              Existing team secret
            </label>
          </div>
        )}
        {source === 'new' ? (
          <div className="form">
            <label htmlFor={`${id}-name`}>Name of the new secret (optional)</label>
            <input
              id={`${id}-name`}
              value={draft.newName}
              placeholder={suggested}
              spellCheck={false}
              aria-invalid={nameError ? true : undefined}
              aria-describedby={`${id}-name-hint ${id}-name-error`}
              onChange={(event) => onChange({ newName: event.target.value })}
            />
            <FieldError id={`${id}-name-error`} error={nameError} />
            <p id={`${id}-name-hint`} className="hint">
              Leave it blank and the relay names it {suggested} (or the next free name).
            </p>
          </div>
        ) : (
          <div className="form">
            <label htmlFor={`${id}-existing`}>Team secret</label>
            <select
              id={`${id}-existing`}
              value={draft.existingName}
              aria-invalid={nameError ? true : undefined}
              aria-describedby={`${id}-existing-hint ${id}-name-error`}
              onChange={(event) => onChange({ existingName: event.target.value })}
            >
              <option value="">Choose a team secret…</option>
              {teamSecrets.map((secret) => (
                <option key={secret.name} value={secret.name}>
                  {secret.fingerprint === null
                    ? secret.name
                    : `${secret.name} (${secret.fingerprint})`}
                </option>
              ))}
            </select>
            <FieldError id={`${id}-name-error`} error={nameError} />
            <p id={`${id}-existing-hint`} className="hint">
              {secrets.data && teamSecrets.length === 0 ? (
                <>
                  There are no team secrets yet: create one on the{' '}
                  <a href={routeHref('secrets')}>Secrets page</a>.
                </>
              ) : (
                'Its value is not shown again: it is an existing team secret. Rotating it changes every webhook that uses it.'
              )}
            </p>
          </div>
        )}
      </fieldset>
    </>
  );
}
