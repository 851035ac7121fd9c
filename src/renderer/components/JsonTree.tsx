import {
  createContext,
  useContext,
  useDeferredValue,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { formatCount } from './format.js';
import {
  childPath,
  copyText,
  isContainer,
  parseJsonNodes,
  searchNodes,
  type JsonChild,
  type JsonContainer,
  type JsonNode,
} from './json-nodes.js';
import { CopyButton } from './CopyButton.js';
import './json-tree.css';

/** Children are shown in slices: a 5,000-item array opens instantly and grows on request. */
const CHUNK = 200;
/** A huge string value is cut in the tree; Copy value and the Raw tab still give all of it. */
const MAX_SHOWN_CHARS = 2000;

interface TreeContextValue {
  text: string;
  needle: string;
  search: ReturnType<typeof searchNodes> | null;
  openDepth: number;
}

const TreeContext = createContext<TreeContextValue | null>(null);

function useTree(): TreeContextValue {
  const value = useContext(TreeContext);
  if (!value) throw new Error('JsonTree rows need their tree');
  return value;
}

function Highlight({ text, needle }: { text: string; needle: string }): ReactNode {
  if (needle === '') return text;
  const at = text.toLowerCase().indexOf(needle);
  if (at < 0) return text;
  return (
    <>
      {text.slice(0, at)}
      <mark>{text.slice(at, at + needle.length)}</mark>
      <Highlight text={text.slice(at + needle.length)} needle={needle} />
    </>
  );
}

function CopyAction({ what, value, path }: { what: string; value: string; path: string }) {
  const label = `Copy ${what} of ${path === '' ? 'the whole payload' : path}`;
  return <CopyButton value={value} label={label} text={`Copy ${what}`} className="json-copy" />;
}

function summary(node: JsonContainer): string {
  const count = node.children.length;
  return node.kind === 'object'
    ? `{…} ${formatCount(count)} ${count === 1 ? 'key' : 'keys'}`
    : `[…] ${formatCount(count)} ${count === 1 ? 'item' : 'items'}`;
}

function NodeRow({
  child,
  path,
  depth,
  filtered,
}: {
  child: JsonChild | { key: null; node: JsonNode };
  path: string;
  depth: number;
  /** Only nodes on the way to a search match are shown. */
  filtered: boolean;
}): ReactNode {
  const { text, needle, search, openDepth } = useTree();
  const { key, node } = child;
  const [toggled, setToggled] = useState<boolean | null>(null);
  const [limit, setLimit] = useState(CHUNK);
  const keyText = key === null ? null : String(key);
  const keyView =
    keyText === null ? null : typeof key === 'number' ? (
      <span className="json-index">{keyText}:</span>
    ) : (
      <span className="json-key">
        <Highlight text={keyText} needle={needle} />:
      </span>
    );

  if (!isContainer(node)) {
    const literal = node.kind === 'string' ? text.slice(node.start, node.end) : node.value;
    const shown =
      literal.length > MAX_SHOWN_CHARS
        ? `${literal.slice(0, MAX_SHOWN_CHARS)}… (${literal.length - MAX_SHOWN_CHARS} more characters)`
        : literal;
    return (
      <li className="json-node">
        <div className="json-row">
          <span className="json-pad" aria-hidden="true" />
          {keyView}
          <span className={`json-value json-${node.kind}`}>
            <Highlight text={shown} needle={needle} />
          </span>
          <span className="json-actions">
            {path !== '' && <CopyAction what="path" value={path} path={path} />}
            <CopyAction what="value" value={copyText(node, text)} path={path} />
          </span>
        </div>
      </li>
    );
  }

  const onlyMatches = filtered && search !== null && !search.selfMatch.has(node);
  const children = onlyMatches
    ? node.children.filter((c) => search.shown.has(c.node))
    : node.children;
  const leadsToMatch = search?.opened.has(node) ?? false;
  const expanded = toggled ?? (leadsToMatch || depth < openDepth);
  // Among unfiltered children (this key matched), a match past the first slice would be counted
  // but hidden with nothing saying so; filtered children are all matches, and "Show more" says so.
  const lastMatch =
    search && !onlyMatches ? children.findLastIndex((c) => search.shown.has(c.node)) : -1;
  const shownLimit = Math.max(limit, lastMatch + 1);
  return (
    <li className="json-node">
      <div className="json-row">
        <button
          type="button"
          className="json-toggle"
          aria-expanded={expanded}
          onClick={() => setToggled(!expanded)}
        >
          <span className="json-caret" aria-hidden="true">
            {expanded ? '▾' : '▸'}
          </span>
          {keyView ?? <span className="json-index">payload</span>}
        </button>
        <span className="json-summary">{summary(node)}</span>
        <span className="json-actions">
          {path !== '' && <CopyAction what="path" value={path} path={path} />}
          <CopyAction what="value" value={copyText(node, text)} path={path} />
        </span>
      </div>
      {expanded && (
        <ul className="json-children">
          {children.slice(0, shownLimit).map((c) => (
            <NodeRow
              key={`${c.key}@${c.node.start}`}
              child={c}
              path={childPath(path, c.key)}
              depth={depth + 1}
              filtered={onlyMatches}
            />
          ))}
          {children.length > shownLimit && (
            <li className="json-node">
              <button type="button" className="link" onClick={() => setLimit(shownLimit + CHUNK)}>
                Show {formatCount(Math.min(CHUNK, children.length - shownLimit))} more of{' '}
                {formatCount(children.length - shownLimit)} not shown
              </button>
            </li>
          )}
        </ul>
      )}
    </li>
  );
}

/**
 * A collapsible JSON tree with search, and copy path / copy value on every node. Children render
 * only once opened, so a 256 KB payload costs what is on screen, not what is in the text.
 */
export function JsonTree({ text, openDepth = 2 }: { text: string; openDepth?: number }): ReactNode {
  const parsed = useMemo(() => {
    try {
      return { root: parseJsonNodes(text), error: null };
    } catch (error) {
      return { root: null, error: error instanceof Error ? error.message : String(error) };
    }
  }, [text]);
  const [query, setQuery] = useState('');
  const needle = useDeferredValue(query.trim().toLowerCase());
  const search = useMemo(
    () => (parsed.root && needle !== '' ? searchNodes(parsed.root, needle) : null),
    [parsed.root, needle],
  );
  if (!parsed.root) {
    return (
      <p className="warning-note">
        This payload cannot be shown as a tree ({parsed.error}): read it in Raw.
      </p>
    );
  }
  const context: TreeContextValue = { text, needle, search, openDepth };
  return (
    <div className="json-tree">
      <div className="json-tree-toolbar">
        <input
          type="search"
          aria-label="Search the payload"
          placeholder="Search keys and values"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <span className="hint" role="status">
          {search ? `${search.count} ${search.count === 1 ? 'match' : 'matches'}` : ''}
        </span>
      </div>
      <TreeContext.Provider value={context}>
        <ul className="json-children json-root">
          {search && search.count === 0 ? (
            <li className="hint">Nothing in this payload matches “{query.trim()}”.</li>
          ) : (
            <NodeRow
              key={needle}
              child={{ key: null, node: parsed.root }}
              path=""
              depth={0}
              filtered={search !== null}
            />
          )}
        </ul>
      </TreeContext.Provider>
    </div>
  );
}
