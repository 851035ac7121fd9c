import { useId, type ReactNode } from 'react';
import type { Webhook } from '../types.js';

/** Where to send and whether to sign: the URL (with the remembered ones offered) and Sign. */
export function ForwardTarget({
  webhook,
  url,
  sign,
  urls,
  onUrl,
  onSign,
  onForget,
  remote,
}: {
  webhook: Webhook;
  url: string;
  sign: boolean;
  urls: readonly string[];
  onUrl: (url: string) => void;
  onSign: (sign: boolean) => void;
  onForget: (url: string) => void;
  /** Offered after the relay refused to sign for a handler elsewhere (remote-signing.ts). */
  remote?: { offered: boolean; allowed: boolean; setAllowed: (allowed: boolean) => void };
}): ReactNode {
  const id = useId();
  const signs = webhook.authMode === 'signature';
  return (
    <div className="forward-target">
      <label htmlFor={`${id}-url`}>Handler URL</label>
      <input
        id={`${id}-url`}
        type="url"
        required
        list={`${id}-urls`}
        placeholder="http://127.0.0.1:3000/webhooks"
        spellCheck={false}
        autoComplete="off"
        value={url}
        onChange={(event) => onUrl(event.target.value)}
      />
      <datalist id={`${id}-urls`}>
        {urls.map((u) => (
          <option key={u} value={u} />
        ))}
      </datalist>
      {urls.length > 0 && (
        <ul className="remembered-urls" aria-label="Sent to before">
          {urls.map((u) => (
            <li key={u}>
              <button type="button" className="link" onClick={() => onUrl(u)}>
                {u}
              </button>
              <button
                type="button"
                className="icon-button"
                aria-label={`Forget ${u}`}
                onClick={() => onForget(u)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <label className="check">
        <input
          type="checkbox"
          checked={signs && sign}
          disabled={!signs}
          onChange={(event) => onSign(event.target.checked)}
        />
        {signs
          ? `Sign it as ${webhook.signatureScheme ?? 'the provider'} does, with this webhook's secret (fresh timestamp)`
          : 'Not signed: a token webhook has no signature, and its token is not sent'}
      </label>
      {remote?.offered && signs && sign && (
        <label className="check">
          <input
            type="checkbox"
            checked={remote.allowed}
            onChange={(event) => remote.setAllowed(event.target.checked)}
          />
          Allow signing for a handler that is not on this machine (whoever runs it can use the
          signature as if the provider had sent it)
        </label>
      )}
    </div>
  );
}
