import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitHubStandin } from '../../support/providers/github-standin.js';
import { goPublic, linkedRelay, linkGitHub, storeToken } from '../../support/links.js';
import type { TestRelay } from '../../support/relay.js';

const TOKEN = 'ghp_standin_token_stays_home';
const HOOK_SECRET = 'hook-secret-stays-home-0123456789';

/**
 * A provider's answer names the next URL to read (GitHub's `Link` header, as its REST description
 * "Using pagination in the REST API" documents): the stand-in names another host, as a hostile or
 * misconfigured API could, and a second loopback server records what reaches it.
 */
describe("a link's API token", () => {
  let github: GitHubStandin;
  let relay: TestRelay;
  const elsewhere: IncomingHttpHeaders[] = [];
  const other = createServer((request, response) => {
    elsewhere.push(request.headers);
    response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    github = await new GitHubStandin(TOKEN).start();
    github.nextPageOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    relay = await linkedRelay();
    await goPublic(relay);
    await storeToken(relay, 'github-token', TOKEN);
  });
  afterAll(async () => {
    await relay.stop();
    await github.stop();
    await new Promise((resolve) => other.close(resolve));
  });

  it("is sent to the link's apiBaseUrl only, whatever URL the provider answers with", async () => {
    const { webhook, ingressUrl } = await relay.createWebhook({
      name: 'gh',
      authMode: 'signature',
      signatureScheme: 'github',
      secret: HOOK_SECRET,
    });
    const hook = github.addHook('acme/api', ingressUrl, HOOK_SECRET);
    // More failed deliveries than one page lists, so the listing follows the Link header.
    for (let n = 0; n < github.pageSize + 2; n++)
      await github.send(hook, 'issues', { action: 'opened', n }, { relayAsleep: true });
    const linked = await linkGitHub(relay, webhook.uid, github, hook);
    expect(linked.status).toBe(200);

    const recovered = await relay.api<{ recovery: { errors: string[] } }>(
      'POST',
      `/api/webhooks/${webhook.uid}/link/recover`,
      {},
    );
    expect(elsewhere).toEqual([]);
    expect(recovered.body.recovery.errors.join('\n')).toContain(
      `refused to send the link's API token to ${github.nextPageOrigin}`,
    );
    // The first page reached GitHub itself, with the token.
    expect(github.server.requestsTo('GET', /\/deliveries$/).length).toBeGreaterThan(0);
  });
});
