import type { Webhook } from './types.js';

const SAMPLE_BODY = `'{"hello":"world"}'`;
const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * How a sender reaches this webhook, as one line to paste into a terminal. `hookport` is how the
 * relay says its CLI runs on this machine (`hookport` on the PATH, or the launcher's path).
 */
export function sampleCommand(
  webhook: Pick<Webhook, 'authMode' | 'signatureScheme'>,
  ingressUrl: string,
  secret: string | null,
  hookport: string,
): string {
  // With an existing team secret the value is not shown: the line reads it from the shell.
  const secretArg = secret === null ? '"$WEBHOOK_SECRET"' : quote(secret);
  const auth =
    secret === null
      ? '"Authorization: Bearer $WEBHOOK_SECRET"'
      : quote(`Authorization: Bearer ${secret}`);
  const curl = `curl -i -X POST ${quote(ingressUrl)} -H ${quote('Content-Type: application/json')}`;
  switch (webhook.authMode) {
    case 'token':
      return `${curl} -H ${auth} -d ${SAMPLE_BODY}`;
    case 'url_token':
      return `${curl} -d ${SAMPLE_BODY}`;
    case 'signature':
      return `echo ${SAMPLE_BODY} > event.json && ${hookport} send ${quote(ingressUrl)} --body event.json --scheme ${webhook.signatureScheme ?? ''} --secret ${secretArg}`;
  }
}
