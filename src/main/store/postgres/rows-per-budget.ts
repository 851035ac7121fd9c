/**
 * How many rows a background statement should take to last about a budget, by the pace of the
 * last ones (each statement's time per row, averaged with the guess so far): a statement's cost
 * varies with payload sizes, the cache and the other relays' load, and a fixed count was either
 * too long under load or too many round trips when quiet.
 */
export class RowsPerBudget {
  private msPerRow: number;

  constructor(
    firstMsPerRow: number,
    private readonly min: number,
    private readonly max: number,
  ) {
    this.msPerRow = firstMsPerRow;
  }

  rows(budgetMs: number): number {
    return Math.min(this.max, Math.max(this.min, Math.floor(budgetMs / this.msPerRow)));
  }

  /** A statement took `ms` for `rows` rows (none: nothing learnt). */
  took(ms: number, rows: number): void {
    if (rows > 0) this.msPerRow = (this.msPerRow + ms / rows) / 2;
  }
}
