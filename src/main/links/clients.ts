import type { LinkRecord } from '../store/links.js';
import { githubClient } from './github.js';
import { gitlabClient } from './gitlab.js';
import { stripeClient } from './stripe.js';
import type { ProviderClient, ProviderTiming } from './provider.js';

/** The provider's own client for a link; its token is sent to the link's `apiBaseUrl` only. */
export type ClientFactory = (link: LinkRecord, token: string) => ProviderClient;

export function providerClients(timing: ProviderTiming): ClientFactory {
  return (link, token) => {
    const options = { target: link.target, apiBaseUrl: link.apiBaseUrl, token, timing };
    switch (link.kind) {
      case 'github':
        return githubClient(options);
      case 'gitlab':
        return gitlabClient(options);
      case 'stripe':
        return stripeClient(options);
    }
  };
}
