import type { ProviderSender } from '../../signatures/support/senders.js';

/** The `hookport send` flags that sign like `sender`'s provider, with its secret. */
export function schemeFlags(sender: ProviderSender, secret = sender.secret): string[] {
  // `--secret=…`: a random secret may start with "-", which would read as a flag.
  const flags = ['--scheme', sender.scheme, `--secret=${secret}`];
  const options = sender.signatureOptions;
  if (options) {
    flags.push('--hmac-header', options.header, '--hmac-encoding', options.encoding);
    flags.push(`--hmac-prefix=${options.prefix}`);
  }
  return flags;
}
