import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../support/run-hookport.js';
import { tempDir } from '../../support/relay.js';

/** HOOKPORT_RUN_LEASE_MS (README "Many relays"): a wrong value is refused before the relay starts. */
describe('hookport serve with HOOKPORT_RUN_LEASE_MS', () => {
  const dataDir = tempDir();
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses a lease that is not a whole number of milliseconds of at least 1000, naming it', async () => {
    for (const value of ['soon', '500', '2.5s', '-3000']) {
      const run = await runCli(['serve', '--data-dir', dataDir, '--ingress-port', '0'], {
        HOOKPORT_RUN_LEASE_MS: value,
      });
      expect({ value, code: run.code, stdout: run.stdout }).toEqual({ value, code: 2, stdout: '' });
      expect(run.stderr).toMatch(
        new RegExp(
          `^hookport: HOOKPORT_RUN_LEASE_MS must be a whole number of milliseconds, at least 1000, not "${value.replace('.', '\\.')}"\\n`,
        ),
      );
    }
  });
});
