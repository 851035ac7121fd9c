import { describe, expect, it } from 'vitest';
import { filterWarnings, validateFilter } from '../../../src/shared/filter/index.js';

describe('operator look-alikes in a filter', () => {
  it('flags MongoDB-style $ operators, which read as field names', () => {
    const filter = { additions: { $gt: 100 } };
    expect(validateFilter(filter).ok).toBe(true);
    expect(filterWarnings(filter)).toEqual([
      {
        path: 'payload.additions.$gt',
        message: '`$gt` is not an operator here; the operators are in, not_in, exists',
      },
    ]);
  });

  it('names the operator meant by $in or notIn', () => {
    expect(filterWarnings({ state: { $in: ['open'] } })[0]?.message).toBe(
      '`$in` is not an operator here: write "in" without the $',
    );
    expect(filterWarnings({ state: { notIn: ['closed'] } })[0]?.message).toBe(
      '`notIn` is not an operator here: write "not_in"',
    );
    expect(filterWarnings({ pr: { size: { gte: 3 } } }).map((w) => w.path)).toEqual([
      'payload.pr.size.gte',
    ]);
  });

  it('leaves real operators, plain fields and a top-level "gt" field alone', () => {
    expect(filterWarnings({ action: { in: ['opened'] }, merged: { exists: true } })).toEqual([]);
    expect(filterWarnings({ gt: 1, repository: { name: 'api' } })).toEqual([]);
    expect(filterWarnings({ $schema: 'x' }).map((w) => w.path)).toEqual(['payload.$schema']);
  });
});
