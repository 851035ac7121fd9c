import { filterSuite } from './filter.js';
import { fuzzSuite } from './fuzz.js';
import { ingressSuite } from './ingress.js';
import { uiSuite } from './ui.js';

export interface BenchSuite {
  name: string;
  run(): Promise<void>;
}

/** Suites register here, one line each. */
export const suites: BenchSuite[] = [filterSuite, ingressSuite, fuzzSuite, uiSuite];
