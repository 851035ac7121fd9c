import { isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Document } from 'yaml';
import type { z } from 'zod';
import type { DefinitionProblem } from './problems.js';

/** A parsed YAML text that can say on which line of its file any key path sits. */
export interface YamlSource {
  file: string;
  doc: Document;
  value: unknown;
  lineOf: (path: ReadonlyArray<PropertyKey>) => number | null;
}

/**
 * Parses YAML, reporting syntax errors and duplicate keys as problems. `firstLine` is the file line
 * the text starts on (2 for front matter after its `---`).
 */
export function parseYaml(
  file: string,
  text: string,
  firstLine = 1,
): YamlSource | DefinitionProblem[] {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true, prettyErrors: false });
  const lineAt = (offset: number): number => counter.linePos(offset).line + firstLine - 1;
  if (doc.errors.length > 0) {
    return doc.errors.map((error) => ({
      file,
      line: lineAt(error.pos[0]),
      key: null,
      message: error.message.split('\n')[0]!,
    }));
  }
  const lineOf = (path: ReadonlyArray<PropertyKey>): number | null => {
    let node: unknown = doc.contents;
    let line: number | null = null;
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find(
          (p) => isScalar(p.key) && String(p.key.value) === String(segment),
        );
        if (!pair || !isScalar(pair.key) || !pair.key.range) break;
        line = lineAt(pair.key.range[0]);
        node = pair.value;
      } else if (isSeq(node)) {
        const item: unknown = node.items[Number(segment)];
        const range = (item as { range?: [number, number, number] } | undefined)?.range;
        if (!range) break;
        line = lineAt(range[0]);
        node = item;
      } else break;
    }
    return line ?? firstLine;
  };
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (error) {
    // An alias with no anchor, or so many aliases that expanding them would exhaust memory.
    return [{ file, line: firstAliasLine(doc, lineAt), key: null, message: aliasMessage(error) }];
  }
  return { file, doc, value, lineOf };
}

function firstAliasLine(doc: Document, lineAt: (offset: number) => number): number | null {
  let line: number | null = null;
  visit(doc, {
    Alias(_, node) {
      if (node.range) line = lineAt(node.range[0]);
      return visit.BREAK;
    },
  });
  return line;
}

function aliasMessage(error: unknown): string {
  const text = error instanceof Error ? error.message.split('\n')[0]! : String(error);
  return /excessive alias count/i.test(text)
    ? 'uses too many YAML aliases (*name); write the values out'
    : text;
}

const describeIssue = (issue: z.core.$ZodIssue): { key: PropertyKey[]; message: string } => {
  if (issue.code === 'unrecognized_keys') {
    return { key: [...issue.path, issue.keys[0]!], message: 'unknown key' };
  }
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined')) {
    return { key: issue.path, message: 'is required' };
  }
  return { key: issue.path, message: issue.message };
};

/** Every zod issue as a problem at the line of its key. */
export function issuesToProblems(
  source: YamlSource,
  error: z.ZodError,
  keyPrefix: PropertyKey[] = [],
): DefinitionProblem[] {
  return error.issues.map((issue) => {
    const { key, message } = describeIssue(issue);
    const path = [...keyPrefix, ...key];
    return {
      file: source.file,
      line: source.lineOf(path),
      key: path.length > 0 ? path.map(String).join('.') : null,
      message,
    };
  });
}
