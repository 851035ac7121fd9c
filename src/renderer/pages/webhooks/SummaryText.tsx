import type { ReactNode } from 'react';

/** `text` with the first occurrence of `search` marked; case is folded as the search folds it. */
function Marked({ text, search }: { text: string; search: string }): ReactNode {
  const at = search === '' ? -1 : text.toLowerCase().indexOf(search.toLowerCase());
  if (at < 0) return text;
  return (
    <>
      {text.slice(0, at)}
      <mark>{text.slice(at, at + search.length)}</mark>
      {text.slice(at + search.length)}
    </>
  );
}

/**
 * A delivery's one-line summary (PRODUCT.md §22), with the searched text marked where the summary
 * holds it: a search result shows why it matched.
 */
export function SummaryText({
  summary,
  search,
}: {
  summary: string | null;
  search: string;
}): ReactNode {
  if (summary === null) return null;
  return (
    <span className="delivery-summary" data-testid="delivery-summary">
      <Marked text={summary} search={search} />
    </span>
  );
}

/** Where a search matched when the row does not show it otherwise: the payload text around it. */
export function MatchText({
  match,
  search,
}: {
  match: string | undefined;
  search: string;
}): ReactNode {
  if (match === undefined || search === '') return null;
  return (
    <span className="delivery-match" data-testid="delivery-match">
      <span className="delivery-match-where">matched </span>
      <code>
        <Marked text={match} search={search} />
      </code>
    </span>
  );
}
