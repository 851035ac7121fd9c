import { filterSuite } from './filter.js';
import { fuzzSuite } from './fuzz.js';
import { filterLabSuite } from './filter-lab.js';
import { ingressSuite } from './ingress.js';
import { postgresSuite } from './postgres.js';
import { postgresStoreSuite } from './postgres-store.js';
import { scaleSuite } from './scale.js';
import { scalePostgresSuite } from './scale-postgres.js';
import { searchSuite } from './search.js';
import { uiSuite } from './ui.js';
import { uiFirstHourSuite } from './ui-first-hour.js';

export interface BenchSuite {
  name: string;
  run(): Promise<void>;
}

/** Suites register here, one line each. */
export const suites: BenchSuite[] = [
  filterSuite,
  filterLabSuite,
  ingressSuite,
  fuzzSuite,
  searchSuite,
  postgresStoreSuite,
  postgresSuite,
  uiSuite,
  uiFirstHourSuite,
  scaleSuite,
  scalePostgresSuite,
];
