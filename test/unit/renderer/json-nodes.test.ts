import { describe, expect, it } from 'vitest';
import {
  childPath,
  copyText,
  isContainer,
  JsonTextError,
  parseJsonNodes,
  searchNodes,
  type JsonNode,
} from '../../../src/renderer/components/json-nodes.js';

const child = (node: JsonNode, key: string | number): JsonNode => {
  if (!isContainer(node)) throw new Error('not a container');
  const found = node.children.find((c) => c.key === key);
  if (!found) throw new Error(`no child ${key}`);
  return found.node;
};

/** The delivery inspector's JSON tree shows what the sender sent, not what JSON.parse keeps. */
describe('the payload tree', () => {
  it('keeps every digit of a number and every repeated key', () => {
    const text = '{"id": 12345678901234567890, "id": 2, "price": 1.50}';
    const root = parseJsonNodes(text);
    if (!isContainer(root)) throw new Error('expected an object');
    expect(root.children.map((c) => c.key)).toEqual(['id', 'id', 'price']);
    expect(root.children.map((c) => (isContainer(c.node) ? null : c.node.value))).toEqual([
      '12345678901234567890',
      '2',
      '1.50',
    ]);
  });

  it('copies a string as its text and anything else as its exact bytes', () => {
    const text = '\ufeff{"msg": "caf\\u00e9 \\"ok\\"", "list": [1,  2.0 ,{"a":null}]}';
    const root = parseJsonNodes(text);
    expect(copyText(child(root, 'msg'), text)).toBe('café "ok"');
    expect(copyText(child(root, 'list'), text)).toBe('[1,  2.0 ,{"a":null}]');
    expect(copyText(child(child(root, 'list'), 1), text)).toBe('2.0');
  });

  it('reads a body nested far deeper than the call stack allows', () => {
    const depth = 100_000;
    let node = parseJsonNodes('['.repeat(depth) + '"bottom"' + ']'.repeat(depth));
    for (let level = 0; level < depth; level++) node = child(node, 0);
    expect(node).toMatchObject({ kind: 'string', value: 'bottom' });
  });

  it.each(['{"a": 1,}', '{"a" 1}', '[1 2]', '{"a": tru}', '"open', '{} {}', ''])(
    'refuses %j, saying where',
    (text) => {
      expect(() => parseJsonNodes(text)).toThrow(JsonTextError);
      expect(() => parseJsonNodes(text)).toThrow(/at character \d+/);
    },
  );

  it('writes paths as a person reads them', () => {
    expect(childPath('', 'pull_request')).toBe('pull_request');
    expect(childPath('pull_request', 'head')).toBe('pull_request.head');
    expect(childPath('items', 0)).toBe('items[0]');
    expect(childPath('labels', 'odd key')).toBe('labels["odd key"]');
  });

  it('finds keys and values case-insensitively and keeps their ancestors visible', () => {
    const text = '{"pull_request": {"title": "Fix CI"}, "sender": {"login": "octocat"}}';
    const root = parseJsonNodes(text);
    const found = searchNodes(root, 'ci');
    const title = child(child(root, 'pull_request'), 'title');
    expect(found.count).toBe(1);
    expect(found.selfMatch.has(title)).toBe(true);
    expect(found.shown.has(child(root, 'pull_request'))).toBe(true);
    expect(found.shown.has(child(root, 'sender'))).toBe(false);
    expect(searchNodes(root, 'LOGIN').count).toBe(1);
  });

  it('opens every container with a match beneath it, even one whose own key matched', () => {
    const root = parseJsonNodes('{"pull_request":{"labels":["a","b"]},"other":{"x":1}}');
    const found = searchNodes(root, 'b');
    const pullRequest = child(root, 'pull_request');
    const labels = child(pullRequest, 'labels');
    // "labels" matches by its key and "b" by its value: both count, and "b" must be reachable.
    expect(found.count).toBe(2);
    expect(found.opened.has(root)).toBe(true);
    expect(found.opened.has(pullRequest)).toBe(true);
    expect(found.opened.has(labels)).toBe(true);
    expect(found.opened.has(child(root, 'other'))).toBe(false);
  });
});
