import { useState, type ReactNode } from 'react';
import { curlCommand } from '../../../shared/curl-command.js';
import type { DeliveryEntry, Webhook } from './types.js';

type CopyState = 'idle' | 'copied' | 'failed';

/** Saves the stored payload as a file, byte for byte (it is UTF-8 text: it parsed as JSON). */
function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Copy as curl: the stored request again, against the relay. Credentials become shell variables
 * to set first; a large payload is read from a file, which "Download payload" saves.
 */
export function CopyAsCurl({
  entry,
  webhook,
}: {
  entry: DeliveryEntry;
  webhook: Webhook;
}): ReactNode {
  const [state, setState] = useState<CopyState>('idle');
  if (entry.headers === null || entry.path === null) return null;
  const bodyFile = `${entry.id}.json`;
  const command = curlCommand({
    ingressUrl: webhook.ingressUrl,
    authMode: webhook.authMode,
    signatureScheme: webhook.signatureScheme,
    hmacHeader: webhook.signatureOptions?.header ?? null,
    path: entry.path,
    headers: entry.headers,
    body: entry.payload,
    bodyFile,
  });
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(command.text);
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 1500);
  };
  const needs = command.variables.length > 0 ? `; set ${command.variables.join(', ')} first` : '';
  return (
    <>
      <button
        type="button"
        title={`The same request against the relay, as a curl command${needs}`}
        onClick={() => void copy()}
      >
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy as curl'}
      </button>
      {command.bodyInFile && entry.payload !== null && (
        <button
          type="button"
          title={`Save the payload as ${bodyFile}, which the curl command reads`}
          onClick={() => download(bodyFile, entry.payload!)}
        >
          Download payload
        </button>
      )}
    </>
  );
}
