import { useState, type ReactNode } from 'react';
import { PROVIDER_NAMES, type Link } from '../../../shared/contract/links.js';
import { useClient } from '../../app/client-context.js';
import { useWriteBlock } from '../../app/relay-context.js';
import { useAction } from '../../app/use-action.js';
import { useCall } from '../../app/use-call.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatTime } from '../../components/format.js';
import { useToast } from '../../components/toasts.js';
import { LinkForm } from './LinkForm.js';
import type { Webhook } from './types.js';

/** "GitHub hook 123 on acme/api sends here · active" from the link and its check. */
function checkLine(link: Link): string {
  const provider = PROVIDER_NAMES[link.kind];
  const check = link.check;
  if (!check) return `${provider} ${link.target}: not checked yet`;
  const where = check.pointsHere ? 'sends here' : `sends to ${check.hookUrl ?? 'an unknown URL'}`;
  const state = check.active === null ? 'state unknown' : check.active ? 'active' : 'inactive';
  return `${provider} ${link.target} ${where} · ${state}`;
}

/** "asked GitHub for 3 failed deliveries at 07:02; 3 arrived" */
export function recoveryLine(link: Link): string | null {
  const r = link.recovery;
  if (!r) return null;
  const provider = PROVIDER_NAMES[link.kind];
  const already = r.alreadyHere > 0 ? `; ${r.alreadyHere} already here` : '';
  // Nothing to ask for is the usual answer: said as such, not as "asked for 0; 0 arrived".
  if (r.asked === 0)
    return `nothing failed to ask ${provider} for at ${formatTime(r.at)}${already}`;
  const asked = `asked ${provider} for ${r.asked} failed ${r.asked === 1 ? 'delivery' : 'deliveries'} at ${formatTime(r.at)}`;
  return `${asked}; ${r.arrived ?? 0} arrived${already}`;
}

/** Webhook detail → Provider link (UI.md "Reachable and complete"). */
export function ProviderLink({
  webhook,
  onChanged,
}: {
  webhook: Webhook;
  onChanged: () => void;
}): ReactNode {
  const client = useClient();
  const toast = useToast();
  const blocked = useWriteBlock();
  const [linking, setLinking] = useState(false);
  // Read again as recovered deliveries arrive, so "3 arrived" counts up by itself.
  const current = useCall(
    'links.get',
    { uid: webhook.uid },
    (event) =>
      (event.type === 'delivery' &&
        event.delivery.webhookUid === webhook.uid &&
        event.delivery.recovered === true) ||
      (event.type === 'recovered' && event.webhookUid === webhook.uid) ||
      (event.type === 'changed' && event.resource === 'webhooks'),
  );
  const link = current.data === undefined ? (webhook.link ?? null) : current.data;
  const done = () => {
    current.reload();
    onChanged();
  };
  const check = useAction(async () => {
    await client.call('links.check', { uid: webhook.uid });
    done();
  });
  const recover = useAction(async () => {
    const result = await client.call('links.recover', { uid: webhook.uid });
    // The count of arrivals grows after this answer: the section's line keeps it, not the toast.
    const asked = result.recovery?.asked ?? 0;
    toast(
      'success',
      asked > 0
        ? `Asked ${PROVIDER_NAMES[result.kind]} for ${asked} failed ${asked === 1 ? 'delivery' : 'deliveries'}; they show as Recovered as they arrive.`
        : (recoveryLine(result) ?? 'Recovered.'),
    );
    done();
  });
  const unlink = useAction(async () => {
    await client.call('links.delete', { uid: webhook.uid });
    toast('success', "Unlinked; the provider's hook is kept as it is.");
    done();
  });
  return (
    <section className="provider-link" aria-label="Provider link">
      <h3>Provider link</h3>
      {!link && !linking && (
        <>
          <p className="muted">
            Not linked. A link keeps the provider&apos;s hook pointed here and recovers what it
            failed to deliver.
          </p>
          <button type="button" onClick={() => setLinking(true)} disabled={blocked !== null}>
            Link to GitHub / GitLab / Stripe…
          </button>
        </>
      )}
      {!link && linking && (
        <LinkForm
          webhook={webhook}
          onDone={() => {
            setLinking(false);
            done();
          }}
        />
      )}
      {link && (
        <>
          <p data-testid="link-check">
            {checkLine(link)}
            {link.check?.ok && <span className="chip link-ok"> ok</span>}
          </p>
          {link.check && link.check.problems.length > 0 && (
            <ul className="link-problems" aria-label="Link problems">
              {link.check.problems.map((problem) => (
                <li key={problem} className="warning-note">
                  {problem}
                </li>
              ))}
            </ul>
          )}
          {link.recovery && (
            <p data-testid="link-recovery">
              Last recovery: {recoveryLine(link)}
              {link.recovery.errors.map((e) => (
                <span key={e} className="warning-note">
                  {' '}
                  {e}
                </span>
              ))}
            </p>
          )}
          <div className="actions">
            <button type="button" onClick={() => void check.run()} disabled={check.busy}>
              {check.busy ? 'Checking…' : 'Check now'}
            </button>
            <button
              type="button"
              onClick={() => void recover.run()}
              disabled={recover.busy || blocked !== null}
            >
              {recover.busy ? 'Recovering…' : 'Recover now'}
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => void unlink.run()}
              disabled={unlink.busy || blocked !== null}
            >
              Unlink
            </button>
          </div>
          <ErrorNote error={check.error ?? recover.error ?? unlink.error} />
        </>
      )}
    </section>
  );
}
