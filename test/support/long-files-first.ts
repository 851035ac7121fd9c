import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files known to take longest, longest first: the clean-clone test (its own lint, type check and
 * build: minutes), then the browser tests (half a minute to a minute each).
 */
const KNOWN_LONG = ['test/integration/first-run/', 'test/e2e/'];

function rank(spec: TestSpecification): number {
  const path = spec.moduleId.slice(spec.project.config.root.length + 1);
  const index = KNOWN_LONG.findIndex((prefix) => path.startsWith(prefix));
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
