import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sync, writeDefinition } from '../../support/definitions.js';
import { GitLabStandin } from '../../support/providers/gitlab-standin.js';
import { FAST_TIMING, goPublic, linkedRelay, storeToken } from '../../support/links.js';
import { tempDir, type TestRelay } from '../../support/relay.js';

/** No provider silence is tested here: a loaded machine must not turn a slow answer into one. */
const PATIENT = { ...FAST_TIMING, requestTimeoutMs: 10_000 };
const TOKEN = 'glpat-definitions-token-123456';
const HOOK_TOKEN = 'gitlab-hook-token-definitions-0123';

const gitlabFile = (link: string) =>
  `authMode: signature\nsignatureScheme: gitlab\nsecretName: gl-hook\n${link}`;

describe('link: in a webhook definition file', () => {
  let relay: TestRelay;
  let gitlab: GitLabStandin;
  afterEach(async () => {
    await relay.stop();
    await gitlab.stop();
  });

  async function setUp() {
    gitlab = await new GitLabStandin(TOKEN).start();
    relay = await linkedRelay({ links: { timing: PATIENT } });
    const publicUrl = await goPublic(relay);
    await storeToken(relay, 'gl-api', TOKEN);
    await storeToken(relay, 'gl-hook', HOOK_TOKEN);
    const dir = join(tempDir('hookport-defs-'), 'defs');
    const hook = gitlab.addHook('acme/api', 'https://old.example.test/hook', HOOK_TOKEN);
    return { dir, hook, publicUrl };
  }

  const uidOf = async (name: string) =>
    (
      await relay.api<{ items: Array<{ uid: string; name: string }> }>('GET', '/api/webhooks')
    ).body.items.find((w) => w.name === name)!.uid;

  it('is applied by sync: the hook is pointed and checked; removing the key unlinks', async () => {
    const { dir, hook, publicUrl } = await setUp();
    const link = `link:\n  kind: gitlab\n  target: "acme%2Fapi#${hook.id}"\n  tokenSecretName: gl-api\n  apiBaseUrl: ${gitlab.apiBaseUrl}\n`;
    writeDefinition(dir, 'webhooks/gl.yaml', gitlabFile(link));
    const applied = await sync(relay, { dir });
    expect(applied.status).toBe(200);
    await relay.core.links.idle();
    const uid = await uidOf('gl');
    expect(hook.url).toBe(`${publicUrl}/webhooks/w/${uid}`);
    expect(await relay.call('links.get', { uid })).toMatchObject({
      kind: 'gitlab',
      target: `acme%2Fapi#${hook.id}`,
      apiBaseUrl: gitlab.apiBaseUrl,
      keepPointed: true,
      recover: true,
      check: { ok: true, pointsHere: true },
    });

    // Unchanged file: nothing to do. Turning recover off is a change of the link.
    expect((await sync(relay)).body.items[0]).toMatchObject({ action: 'unchanged' });
    writeDefinition(dir, 'webhooks/gl.yaml', gitlabFile(`${link}  recover: false\n`));
    // The directory watcher may apply the edit before this sync: what counts is the outcome.
    expect((await sync(relay)).status).toBe(200);
    expect(await relay.call('links.get', { uid })).toMatchObject({ recover: false });

    writeDefinition(dir, 'webhooks/gl.yaml', gitlabFile(''));
    expect((await sync(relay)).status).toBe(200);
    expect(await relay.call('links.get', { uid })).toBeNull();
    // Unlinking never touches the provider's hook.
    expect(hook.url).toBe(`${publicUrl}/webhooks/w/${uid}`);
  });

  it('on a managed factory, PUT …/link writes the link into the file', async () => {
    const { dir, hook } = await setUp();
    writeDefinition(dir, 'webhooks/gl.yaml', `# ours\n${gitlabFile('')}`);
    await sync(relay, { dir });
    const uid = await uidOf('gl');
    const put = await relay.api('PUT', `/api/webhooks/${uid}/link`, {
      kind: 'gitlab',
      target: `acme%2Fapi#${hook.id}`,
      tokenSecretName: 'gl-api',
      apiBaseUrl: gitlab.apiBaseUrl,
    });
    expect(put.status).toBe(200);
    const text = readFileSync(join(dir, 'webhooks/gl.yaml'), 'utf8');
    expect(text).toContain('# ours');
    expect(text).toContain('kind: gitlab');
    expect(text).toContain('tokenSecretName: gl-api');
    expect((await sync(relay)).body.items[0]).toMatchObject({ action: 'unchanged' });

    await relay.call('links.delete', { uid });
    expect(readFileSync(join(dir, 'webhooks/gl.yaml'), 'utf8')).not.toContain('link:');
  });

  it('refuses a link with clear problems, naming file, line and key', async () => {
    const { dir } = await setUp();
    writeDefinition(
      dir,
      'webhooks/gl.yaml',
      gitlabFile('link:\n  kind: gitlab\n  target: acme/api\n  tokenSecretName: gl-api\n'),
    );
    const bad = await sync(relay, { dir });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toBe(
      `webhooks/gl.yaml:6: link.target: a GitLab link's target is "<project id or path>#<hook id>"`,
    );

    writeDefinition(
      dir,
      'webhooks/gl.yaml',
      gitlabFile(
        'link:\n  kind: bitbucket\n  target: x\n  tokenSecretName: gl-api\n  token: abc\n',
      ),
    );
    const message = (await sync(relay, { dir })).body.error?.message ?? '';
    expect(message).toContain(
      'webhooks/gl.yaml:5: link.kind: must be one of: github, gitlab, stripe',
    );
    expect(message).toContain('link');
    expect(message).toContain('token');

    writeDefinition(
      dir,
      'webhooks/gl.yaml',
      gitlabFile('link:\n  kind: stripe\n  target: we_123\n  tokenSecretName: never-stored\n'),
    );
    expect((await sync(relay, { dir })).body.error?.message).toBe(
      `webhooks/gl.yaml:7: link.tokenSecretName: no team secret named "never-stored"; create it with the provider's API token first (POST /api/secrets)`,
    );
  });
});
