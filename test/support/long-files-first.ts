import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files known to take longest, longest first (a full run's durations, docs/testing.md): the
 * clean-clone test (it installs: minutes), the browser tests of half a minute to a minute each,
 * the other browser tests, then the slowest integration files. Started in this order, the two
 * workers end within a short file of each other. An entry ending in `/` names a folder.
 */
const KNOWN_LONG = [
  'test/integration/first-run/',
  'test/e2e/page-layout.test.ts',
  'test/e2e/delivery-log.test.ts',
  'test/e2e/automations.test.ts',
  'test/e2e/accessibility.test.ts',
  'test/e2e/robustness.test.ts',
  'test/e2e/webhooks-actions.test.ts',
  'test/e2e/settings.test.ts',
  'test/e2e/first-hour.test.ts',
  'test/e2e/delivery-request.test.ts',
  'test/e2e/webhooks.test.ts',
  'test/e2e/webhooks-large.test.ts',
  'test/e2e/runs.test.ts',
  'test/e2e/',
  'test/integration/ingress/early-answers.test.ts',
  'test/integration/links/recovery-once.test.ts',
  'test/integration/replicas/sigkill-one-relay.test.ts',
  'test/integration/store/retention-at-scale.test.ts',
  'test/integration/replicas/runs-across-relays.test.ts',
  'test/integration/secrets/hung-keychain.test.ts',
];

function rank(spec: TestSpecification): number {
  const path = spec.moduleId.slice(spec.project.config.root.length + 1);
  const index = KNOWN_LONG.findIndex((known) =>
    known.endsWith('/') ? path.startsWith(known) : path === known,
  );
  return index === -1 ? KNOWN_LONG.length : index;
}

/**
 * Vitest's order, except that the known-long files start first. With a cache of last durations
 * Vitest starts the longest files first by itself, but CI starts without one, and Vitest then
 * goes by file size: a minutes-long file started late is the whole run's tail, one worker busy
 * while the other waits.
 */
export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((spec, position) => ({ spec, position, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.position - b.position)
      .map(({ spec }) => spec);
  }
}
