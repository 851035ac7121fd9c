import { PROVIDER_NAMES } from '../../shared/contract/links.js';
import type { LinkRecord } from '../store/links-repo.js';
import { githubClient } from './github.js';
import { gitlabClient } from './gitlab.js';
import { ProviderError, type ProviderClient, type ProviderTiming } from './provider.js';

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
      default:
        throw new ProviderError(
          `${PROVIDER_NAMES[link.kind]} links are not supported by this version yet; only GitHub hooks can be linked.`,
          null,
        );
    }
  };
}
