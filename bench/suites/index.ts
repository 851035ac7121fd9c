import { filterSuite } from './filter.js';

export interface BenchSuite {
  name: string;
  run(): Promise<void>;
}

/** Suites register here, one line each. */
export const suites: BenchSuite[] = [filterSuite];
