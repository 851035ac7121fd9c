import { useId, type ReactNode } from 'react';
import type { ApiError } from '../../../shared/errors.js';
import type { TeamSecret } from '../../../shared/contract/secrets.js';
import { errorAt } from '../../components/Field.js';

/** The token as the form holds it: a team secret's name, or a new one to store first. */
export interface TokenChoice {
  existing: string;
  /** True when the operator pastes a token that becomes a new team secret. */
  isNew: boolean;
  newName: string;
  newValue: string;
}

export const NEW_TOKEN = '\u0000new';

/** A webhook's signing secret is not an API token: secrets no webhook uses come first. */
function tokenFirst(secrets: TeamSecret[]): TeamSecret[] {
  return [...secrets.filter((s) => !s.usedBy.length), ...secrets.filter((s) => s.usedBy.length)];
}

/** No team secret that could be a token yet: the picker starts at "paste the token". */
export function noTokenYet(secrets: TeamSecret[]): boolean {
  return secrets.every((s) => s.usedBy.length > 0);
}

/**
 * The link's API credential: an existing team secret, or (a new user has none yet) the token
 * pasted here and stored as a team secret before the link is saved; its value is never shown again.
 */
export function LinkTokenPicker({
  choice,
  onChange,
  secrets,
  hint,
  suggestedName,
  error,
}: {
  choice: TokenChoice;
  onChange: (change: Partial<TokenChoice>) => void;
  secrets: TeamSecret[];
  hint: string;
  suggestedName: string;
  /** A refusal of `secrets.create` (paths `name`, `value`) or of the link (`tokenSecretName`). */
  error: ApiError | undefined;
}): ReactNode {
  const id = useId();
  const pickError = errorAt(error, 'tokenSecretName');
  const nameError = errorAt(error, 'name');
  const valueError = errorAt(error, 'value');
  return (
    <div className="field">
      <label htmlFor={`${id}-pick`}>Token secret</label>
      <select
        id={`${id}-pick`}
        value={choice.isNew ? NEW_TOKEN : choice.existing}
        aria-describedby={`${id}-hint`}
        aria-invalid={pickError ? true : undefined}
        onChange={(event) =>
          event.target.value === NEW_TOKEN
            ? onChange({ isNew: true })
            : onChange({ isNew: false, existing: event.target.value })
        }
      >
        {choice.isNew ? null : <option value="">Choose a team secret…</option>}
        {tokenFirst(secrets).map((s) => (
          <option key={s.name} value={s.name}>
            {s.usedBy.length
              ? `${s.name} (signs ${s.usedBy.map((w) => w.name).join(', ')})`
              : s.name}
          </option>
        ))}
        <option value={NEW_TOKEN}>New team secret: paste the token…</option>
      </select>
      <p id={`${id}-hint`} className="hint">
        {hint}
      </p>
      {pickError && (
        <p className="error-note" role="alert">
          {pickError}
        </p>
      )}
      {choice.isNew && (
        <div className="form">
          <label htmlFor={`${id}-value`}>Token</label>
          <input
            id={`${id}-value`}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={choice.newValue}
            aria-invalid={valueError ? true : undefined}
            onChange={(event) => onChange({ newValue: event.target.value })}
          />
          {valueError && (
            <p className="error-note" role="alert">
              {valueError}
            </p>
          )}
          <label htmlFor={`${id}-name`}>Name of the new team secret</label>
          <input
            id={`${id}-name`}
            autoComplete="off"
            spellCheck={false}
            placeholder={suggestedName}
            value={choice.newName}
            aria-invalid={nameError ? true : undefined}
            onChange={(event) => onChange({ newName: event.target.value })}
          />
          {nameError && (
            <p className="error-note" role="alert">
              {nameError}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
