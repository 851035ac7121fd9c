import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltHookport } from '../../support/mcp-client.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';

/** The built `hookport mcp` says on standard error why it cannot serve, and writes no MCP noise. */
describe('hookport mcp, started wrong', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterAll(() => relay?.stop());

  // Node processes starting on a busy machine take their time.
  it(
    'exits 1 naming the relay it cannot reach, or the token it was refused',
    { timeout: 90_000 },
    async () => {
      const [unreachable, refused] = await Promise.all([
        runBuiltHookport(['mcp', '--admin-url', 'http://127.0.0.1:1'], {
          HOOKPORT_ADMIN_TOKEN: relay.adminToken,
        }),
        runBuiltHookport(['mcp', '--admin-url', relay.adminUrl], {
          HOOKPORT_ADMIN_TOKEN: 'hpt_not-a-token',
        }),
      ]);
      expect(unreachable.code).toBe(1);
      expect(unreachable.stdout).toBe('');
      expect(unreachable.stderr).toMatch(
        /^hookport: Cannot reach the relay at http:\/\/127\.0\.0\.1:1 \(.*Is `hookport serve` running\?/,
      );

      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(/^hookport: That admin token is not valid\./);
    },
  );

  it('refuses arguments it does not take, with the usage', { timeout: 90_000 }, async () => {
    const wrong = await runBuiltHookport(['mcp', '--port', '9']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^hookport: Unknown option '--port'.*Usage:/s);
  });
});
