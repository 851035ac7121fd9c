/**
 * A JSON text as a tree of nodes that remember where they sit in the text. The tree shows what
 * the sender sent: numbers keep their digits (JSON.parse would round 12345678901234567890),
 * repeated keys all stay visible, and "copy value" copies the exact bytes of a subtree.
 */
export type JsonNode = JsonContainer | JsonScalar;

export interface JsonContainer {
  kind: 'object' | 'array';
  children: JsonChild[];
  start: number;
  end: number;
}

export interface JsonScalar {
  kind: 'string' | 'number' | 'boolean' | 'null';
  /** The decoded string for strings; the literal text otherwise. */
  value: string;
  start: number;
  end: number;
}

export interface JsonChild {
  key: string | number;
  node: JsonNode;
}

export const isContainer = (node: JsonNode): node is JsonContainer =>
  node.kind === 'object' || node.kind === 'array';

export class JsonTextError extends Error {}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS = [
  ['true', 'boolean'],
  ['false', 'boolean'],
  ['null', 'null'],
] as const;

interface Frame {
  node: JsonContainer;
  key: string | null;
}

/** Iterative on purpose: a 256 KB body may nest far deeper than the call stack allows. */
export function parseJsonNodes(text: string): JsonNode {
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const stack: Frame[] = [];
  let root: JsonNode | undefined;
  let state: 'value' | 'key' | 'after' = 'value';

  const failure = (what: string): JsonTextError => new JsonTextError(`${what} at character ${i}`);
  const skipSpace = (): void => {
    for (let c = text.charCodeAt(i); c === 32 || c === 9 || c === 10 || c === 13;) {
      c = text.charCodeAt(++i);
    }
  };
  const readString = (): string => {
    const start = i;
    for (i++; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 92) i++;
      else if (c === 34) break;
    }
    if (i >= n) throw failure('Unterminated string');
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const attach = (node: JsonNode): void => {
    const top = stack.at(-1);
    if (!top) root = node;
    else if (top.node.kind === 'array')
      top.node.children.push({ key: top.node.children.length, node });
    else top.node.children.push({ key: top.key ?? '', node });
  };

  for (;;) {
    skipSpace();
    const top = stack.at(-1);
    if (state === 'value') {
      const c = text[i];
      if (c === '{' || c === '[') {
        const node: JsonContainer = {
          kind: c === '{' ? 'object' : 'array',
          children: [],
          start: i,
          end: i,
        };
        attach(node);
        stack.push({ node, key: null });
        i++;
        skipSpace();
        if (text[i] === (c === '{' ? '}' : ']')) {
          node.end = ++i;
          stack.pop();
          state = 'after';
        } else state = c === '{' ? 'key' : 'value';
      } else if (c === '"') {
        const start = i;
        const value = readString();
        attach({ kind: 'string', value, start, end: i });
        state = 'after';
      } else {
        NUMBER.lastIndex = i;
        const number = NUMBER.exec(text);
        const literal = LITERALS.find(([word]) => text.startsWith(word, i));
        if (number) {
          attach({ kind: 'number', value: number[0], start: i, end: i + number[0].length });
          i += number[0].length;
        } else if (literal) {
          attach({ kind: literal[1], value: literal[0], start: i, end: i + literal[0].length });
          i += literal[0].length;
        } else throw failure('Expected a value');
        state = 'after';
      }
    } else if (state === 'key') {
      if (!top || text[i] !== '"') throw failure('Expected a key');
      const key = readString();
      skipSpace();
      if (text[i] !== ':') throw failure('Expected ":"');
      i++;
      top.key = key;
      state = 'value';
    } else {
      if (!top) {
        if (i !== n || !root) throw failure('Unexpected text after the value');
        return root;
      }
      const close = top.node.kind === 'object' ? '}' : ']';
      if (text[i] === ',') {
        i++;
        state = top.node.kind === 'object' ? 'key' : 'value';
      } else if (text[i] === close) {
        top.node.end = ++i;
        stack.pop();
      } else throw failure(`Expected "," or "${close}"`);
    }
  }
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `pull_request.head.ref`, `items[0].name`, `["odd key"]`: the path as a filter reads it. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  if (IDENTIFIER.test(key)) return parent === '' ? key : `${parent}.${key}`;
  return `${parent}[${JSON.stringify(key)}]`;
}

/** The value as the operator wants it on the clipboard: a string's text, else the exact JSON. */
export function copyText(node: JsonNode, text: string): string {
  return node.kind === 'string' ? node.value : text.slice(node.start, node.end);
}

/**
 * Nodes to show for a search: each match and every ancestor of one. Containers whose own key
 * matched are marked separately, so their whole subtree stays browsable. `opened` holds every
 * container with a match beneath it: the tree opens those, or a match would be counted but hidden
 * in a collapsed node.
 */
export function searchNodes(
  root: JsonNode,
  query: string,
): { shown: Set<JsonNode>; selfMatch: Set<JsonNode>; opened: Set<JsonNode>; count: number } {
  const needle = query.toLowerCase();
  const shown = new Set<JsonNode>();
  const selfMatch = new Set<JsonNode>();
  const opened = new Set<JsonNode>();
  const parentOf = new Map<JsonNode, JsonNode>();
  let count = 0;
  const pending: { node: JsonNode; key: string | number | null }[] = [{ node: root, key: null }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const { node, key } = item;
    const keyHit = typeof key === 'string' && key.toLowerCase().includes(needle);
    const valueHit = !isContainer(node) && node.value.toLowerCase().includes(needle);
    if (keyHit || valueHit) {
      count++;
      selfMatch.add(node);
      for (let up: JsonNode | undefined = node; up && !shown.has(up); up = parentOf.get(up)) {
        shown.add(up);
      }
      for (let up = parentOf.get(node); up && !opened.has(up); up = parentOf.get(up)) {
        opened.add(up);
      }
    }
    if (isContainer(node)) {
      for (const child of node.children) {
        parentOf.set(child.node, node);
        pending.push({ node: child.node, key: child.key });
      }
    }
  }
  return { shown, selfMatch, opened, count };
}
