import { filterSuite } from './filter.js';
import { ingressSuite } from './ingress.js';

export interface BenchSuite {
  name: string;
  run(): Promise<void>;
}

/** Suites register here, one line each. */
export const suites: BenchSuite[] = [filterSuite, ingressSuite];
