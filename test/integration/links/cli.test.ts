import { afterEach, describe, expect, it } from 'vitest';
import { GitHubStandin } from '../../support/providers/github-standin.js';
import { goPublic, linkedRelay, storeToken } from '../../support/links.js';
import type { TestRelay } from '../../support/relay.js';
import { runCli } from '../../support/run-hookport.js';

const TOKEN = 'ghp_standin_token_cli';
const HOOK_SECRET = 'hook-secret-cli-0123456789abcdef';

describe('hookport link and hookport recover', () => {
  let github: GitHubStandin;
  let relay: TestRelay;
  afterEach(async () => {
    await relay.stop();
    await github.stop();
  });

  it('links by webhook name, checks, and recovers with a dry run first', async () => {
    github = await new GitHubStandin(TOKEN).start();
    relay = await linkedRelay();
    await storeToken(relay, 'github-token', TOKEN);
    await goPublic(relay);
    await relay.createWebhook({
      name: 'orders',
      authMode: 'signature',
      signatureScheme: 'github',
      secret: HOOK_SECRET,
    });
    const hook = github.addHook('acme/api', 'https://old.example.test/hook', HOOK_SECRET);
    const env = { HOOKPORT_ADMIN_TOKEN: relay.adminToken };
    const admin = ['--admin-url', relay.adminUrl];
    const cli = (...args: string[]) => runCli([...args, ...admin], env);

    const linked = await cli(
      'link',
      'orders',
      `github:acme/api#${hook.id}`,
      '--token-secret',
      'github-token',
      '--api-base-url',
      github.url,
    );
    expect(linked.stderr).toBe('');
    expect(linked.stdout).toContain(`Linked to GitHub acme/api#${hook.id}`);
    expect(linked.stdout).toContain('sends here · active · ok');

    const failed = await github.send(hook, 'push', { n: 1 }, { relayAsleep: true });
    const dry = await cli('recover', 'orders', '--since', '1h', '--dry-run');
    expect(dry.stdout).toMatch(new RegExp(`  ${failed.id}  push  → would ask`));
    expect(github.redeliveryRequests).toEqual([]);

    const real = await cli('recover', 'orders', '--since', '1h');
    expect(real.stdout).toMatch(new RegExp(`  ${failed.id}  push  → asked`));
    expect(real.stdout).toContain(
      'Asked GitHub for 1; 1 accepted to send, 0 already here, 0 failed.',
    );
    expect(github.redeliveryRequests).toEqual([String(failed.id)]);

    const checked = await cli('link', 'orders', '--check');
    expect(checked.stdout).toContain('last recovery');
    expect(checked.code).toBe(0);
    // A person turns the hook off on GitHub: the check says so, and the exit status tells a script.
    hook.active = false;
    const failing = await cli('link', 'orders', '--check');
    expect(failing.stdout).toContain('is set inactive on GitHub');
    expect(failing.code).toBe(1);

    const wrong = await cli('link', 'orders', 'bitbucket:acme/api#1', '--token-secret', 'x');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('is not <kind>:<target>, kind one of github, gitlab, stripe');
    // Each CLI run starts Node with tsx: seconds each on a loaded machine.
  }, 180_000);
});
