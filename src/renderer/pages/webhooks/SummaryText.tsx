import type { ReactNode } from 'react';

/**
 * A delivery's one-line summary (PRODUCT.md §22), with the searched text marked where the summary
 * holds it: a search result shows why it matched. Case is folded as the search folds it.
 */
export function SummaryText({
  summary,
  search,
}: {
  summary: string | null;
  search: string;
}): ReactNode {
  if (summary === null) return null;
  const at = search === '' ? -1 : summary.toLowerCase().indexOf(search.toLowerCase());
  return (
    <span className="delivery-summary" data-testid="delivery-summary">
      {at < 0 ? (
        summary
      ) : (
        <>
          {summary.slice(0, at)}
          <mark>{summary.slice(at, at + search.length)}</mark>
          {summary.slice(at + search.length)}
        </>
      )}
    </span>
  );
}
