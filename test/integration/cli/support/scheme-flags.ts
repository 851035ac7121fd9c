import type { ProviderSender } from '../../signatures/support/senders.js';

/** The `hookport send` flags that sign like `sender`'s provider, with its secret. */
export function schemeFlags(sender: ProviderSender, secret = sender.secret): string[] {
  // As a user types it: a random secret may start with "-", which must still be its value.
  const flags = ['--scheme', sender.scheme, '--secret', secret];
  const options = sender.signatureOptions;
  if (options) {
    flags.push('--hmac-header', options.header, '--hmac-encoding', options.encoding);
    flags.push(`--hmac-prefix=${options.prefix}`);
  }
  return flags;
}
