import { configDefaults, defineConfig } from 'vitest/config';
import { isolatedIntegrationFiles } from './test/support/isolated-files.js';
import { LongFilesFirst } from './test/support/long-files-first.js';

const ISOLATED = isolatedIntegrationFiles(import.meta.dirname);
const ISOLATED_E2E = isolatedIntegrationFiles(import.meta.dirname, 'test/e2e');

export default defineConfig({
  test: {
    // Child relays, CLI runs and browser tests run the build; a stale one is rebuilt first.
    // One PostgreSQL cluster for the run, started when a test first asks for it. Every temporary
    // file under one folder, removed at the end.
    globalSetup: [
      'test/support/run-temp-dir.ts',
      'test/support/fresh-build.ts',
      'test/support/shared-postgres.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests open real ports and real SQLite files; two cores, so keep parallelism modest.
    maxWorkers: 2,
    // The minutes-long files start first, so that none of them is the run's tail on CI (no cache).
    sequence: { sequencer: LongFilesFirst },
    reporters: ['default'],
    // Relays started as child processes keep their secrets in files, never in a developer's keychain;
    // the keychain tests start a private Secret Service and opt in explicitly.
    env: { HOOKPORT_SECRET_BACKEND: 'file' },
    projects: [
      {
        extends: true,
        // Pure functions, no relay, no ports: the files share a worker's loaded modules instead of
        // each importing the sources again (docs/testing.md has the numbers).
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false },
      },
      {
        extends: true,
        // Real relays, started and stopped by each file: a worker keeps the sources it loaded
        // for the next file instead of importing them again (docs/testing.md has the numbers).
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ISOLATED],
          isolate: false,
        },
      },
      {
        extends: true,
        // The browser tests: each file still launches its own Chromium and starts its own relays,
        // but a worker imports the sources and playwright-core once (docs/testing.md).
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ISOLATED_E2E],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'relay',
          include: ['test/**/*.test.ts'],
          exclude: [
            ...configDefaults.exclude,
            'test/unit/**',
            'test/integration/**',
            'test/e2e/**',
          ],
        },
      },
      {
        extends: true,
        test: { name: 'relay-isolated', include: [...ISOLATED, ...ISOLATED_E2E] },
      },
    ],
  },
});
