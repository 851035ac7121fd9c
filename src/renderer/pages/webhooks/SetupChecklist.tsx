import { useId, type ReactNode } from 'react';
import { routeHref } from '../../app/router.js';
import { CopyButton } from '../../components/CopyButton.js';
import { isLoopbackUrl, TOKEN_SETUP, type ProviderSetup } from '../../../shared/provider-setup.js';
import { providerOf } from '../../../shared/providers/index.js';
import type { Webhook } from './types.js';

function setupOf(webhook: Webhook): ProviderSetup {
  if (webhook.authMode === 'signature' && webhook.signatureScheme !== null) {
    return providerOf(webhook.signatureScheme).setup;
  }
  return TOKEN_SETUP[webhook.authMode === 'url_token' ? 'url_token' : 'token'];
}

/**
 * After Add webhook: what to set at the sender, step by step, with the values to paste; and,
 * when the ingress URL is this machine's only, that senders on the internet cannot reach it.
 */
export function SetupChecklist({
  webhook,
  ingressUrl,
  secret,
}: {
  webhook: Webhook;
  ingressUrl: string;
  /** Null when the webhook uses an existing team secret (its value is not shown). */
  secret: string | null;
}): ReactNode {
  const headingId = useId();
  const setup = setupOf(webhook);
  return (
    <section className="setup-checklist" aria-labelledby={headingId}>
      <h3 id={headingId}>Set it up at the sender</h3>
      {isLoopbackUrl(ingressUrl) && (
        <p className="warning-note loopback-note" role="note">
          This URL reaches this machine only: senders on the internet (GitHub, Stripe…) cannot reach
          127.0.0.1. Set a public URL or a tunnel in{' '}
          <a href={routeHref('settings')}>Settings → Public base URL</a>; every ingress URL follows
          it.
        </p>
      )}
      <p className="hint">{setup.where}</p>
      <ol className="setup-steps">
        {setup.steps.map((step) => (
          <li key={step.text}>
            {step.text}
            {step.value === 'url' && (
              <span className="setup-value">
                <code>{ingressUrl}</code>
                <CopyButton value={ingressUrl} label="Copy the URL for the sender" />
              </span>
            )}
            {step.value === 'secret' &&
              (secret === null ? (
                <span className="hint"> (the team secret’s value, from where it was made)</span>
              ) : (
                <span className="setup-value">
                  <CopyButton value={secret} label="Copy the secret for the sender" />
                </span>
              ))}
          </li>
        ))}
      </ol>
    </section>
  );
}
