import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestRelay, tempDir, type TestRelay } from '../../support/relay.js';
import { standInEnv, tunnelState } from '../../support/tunnels.js';

/**
 * `--tunnel tailscale` against the stand-in tailscale CLI (test/support/tunnel-standins/tailscale,
 * after Tailscale's Funnel and CLI docs): `funnel --bg PORT`, then the URL from
 * `status --json` `Self.DNSName`.
 */
describe('a Tailscale Funnel', { timeout: 90_000 }, () => {
  let relay: TestRelay | null = null;
  afterEach(async () => {
    await relay?.stop();
    relay = null;
  });

  it('serves the ingress port, shows the node’s name, follows a rename and turns off at stop', async () => {
    const dir = tempDir('hookport-tailscale-');
    relay = await startTestRelay({
      tunnel: {
        choice: { kind: 'tailscale', domain: null },
        env: standInEnv({ STANDIN_TAILSCALE_DIR: dir }),
        pollMs: 100,
      },
    });
    const up = await tunnelState(relay.core, (t) => t.state === 'up');
    expect(up.url).toBe('https://relay-box.tail1234.ts.net');
    const port = new URL(relay.ingressUrl).port;
    expect(readFileSync(join(dir, 'funnel'), 'utf8')).toBe(port);

    writeFileSync(join(dir, 'dnsname'), 'renamed-box.tail1234.ts.net.');
    const renamed = await tunnelState(relay.core, (t) => t.state === 'up' && t.url !== up.url);
    expect(renamed.url).toBe('https://renamed-box.tail1234.ts.net');
    const status = await relay.call('relay.status', {});
    expect(status.ingressBaseUrl).toBe(renamed.url);

    await relay.stop();
    relay = null;
    expect(readFileSync(join(dir, 'calls'), 'utf8')).toContain('funnel --https=443 off');
  });

  it('explains a tailnet without Funnel', async () => {
    const dir = tempDir('hookport-tailscale-');
    writeFileSync(join(dir, 'funnel-disabled'), '');
    relay = await startTestRelay({
      tunnel: {
        choice: { kind: 'tailscale', domain: null },
        env: standInEnv({ STANDIN_TAILSCALE_DIR: dir }),
      },
    });
    const down = await tunnelState(relay.core, (t) => t.state === 'down');
    expect(down.lastError).toMatch(/^Tailscale Funnel is not enabled for this tailnet or node/);
  });
});
