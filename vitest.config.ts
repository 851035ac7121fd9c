import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Child relays, CLI runs and browser tests run the build; a stale one is rebuilt first.
    // One PostgreSQL cluster for the run, started when a test first asks for it.
    globalSetup: ['test/support/fresh-build.ts', 'test/support/shared-postgres.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests open real ports and real SQLite files; two cores, so keep parallelism modest.
    maxWorkers: 2,
    reporters: ['default'],
    // Relays started as child processes keep their secrets in files, never in a developer's keychain;
    // the keychain tests start a private Secret Service and opt in explicitly.
    env: { HOOKPORT_SECRET_BACKEND: 'file' },
  },
});
