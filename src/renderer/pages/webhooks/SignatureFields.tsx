import { useId, type ReactNode } from 'react';
import { PROVIDERS, providerOf, takesOptions } from '../../../shared/providers/index.js';
import type { SignatureSchemeName } from '../../../shared/signature-schemes.js';
import type { ApiError } from '../../../shared/errors.js';
import { errorFor, FieldError } from './FieldError.js';

export interface SignatureDraft {
  scheme: SignatureSchemeName;
  hmacHeader: string;
  hmacEncoding: 'hex' | 'base64';
  hmacPrefix: string;
}

/** What the UI calls a scheme. */
export const schemeLabel = (scheme: SignatureSchemeName): string => providerOf(scheme).label;

/** Provider scheme, and for the generic scheme where the signature is and how it is written. */
export function SignatureFields({
  draft,
  onChange,
  error,
}: {
  draft: SignatureDraft;
  onChange: (change: Partial<SignatureDraft>) => void;
  error: ApiError | undefined;
}): ReactNode {
  const id = useId();
  const schemeError = errorFor(error, 'signatureScheme');
  const headerError = errorFor(error, 'signatureOptions.header', 'signatureOptions');
  const prefixError = errorFor(error, 'signatureOptions.prefix');
  return (
    <>
      <label htmlFor={`${id}-scheme`}>Provider scheme</label>
      <select
        id={`${id}-scheme`}
        value={draft.scheme}
        aria-invalid={schemeError ? true : undefined}
        aria-describedby={`${id}-scheme-error`}
        onChange={(event) => onChange({ scheme: event.target.value as SignatureSchemeName })}
      >
        {PROVIDERS.map((provider) => (
          <option key={provider.name} value={provider.name}>
            {provider.label}
          </option>
        ))}
      </select>
      <FieldError id={`${id}-scheme-error`} error={schemeError} />
      {takesOptions(draft.scheme) && (
        <fieldset>
          <legend>Signature options</legend>
          <div className="hmac-options">
            <div className="form">
              <label htmlFor={`${id}-header`}>Signature header</label>
              <input
                id={`${id}-header`}
                value={draft.hmacHeader}
                placeholder="X-Signature"
                spellCheck={false}
                aria-invalid={headerError ? true : undefined}
                aria-describedby={`${id}-header-error`}
                onChange={(event) => onChange({ hmacHeader: event.target.value })}
              />
            </div>
            <div className="form">
              <label htmlFor={`${id}-encoding`}>Encoding</label>
              <select
                id={`${id}-encoding`}
                value={draft.hmacEncoding}
                onChange={(event) =>
                  onChange({ hmacEncoding: event.target.value === 'base64' ? 'base64' : 'hex' })
                }
              >
                <option value="hex">hex</option>
                <option value="base64">base64</option>
              </select>
            </div>
            <div className="form">
              <label htmlFor={`${id}-prefix`}>Prefix (optional)</label>
              <input
                id={`${id}-prefix`}
                value={draft.hmacPrefix}
                placeholder="sha256="
                spellCheck={false}
                aria-invalid={prefixError ? true : undefined}
                aria-describedby={`${id}-prefix-error`}
                onChange={(event) => onChange({ hmacPrefix: event.target.value })}
              />
            </div>
          </div>
          <FieldError id={`${id}-header-error`} error={headerError} />
          <FieldError id={`${id}-prefix-error`} error={prefixError} />
          <p className="hint">
            HMAC-SHA256 of the body with the signing secret, written in the header in this encoding
            after the prefix.
          </p>
        </fieldset>
      )}
    </>
  );
}
