import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ResourceLink, ToolResult } from './tool.js';

/** No text part of a result is larger (§21); larger fields become resources. */
export const TEXT_PART_MAX = 64 * 1024;

const bytesOf = (text: string): number => Buffer.byteLength(text, 'utf8');

/** A text field of a result that can be read as a resource instead. */
export interface MovableField {
  key: string;
  uri: string;
  mimeType: string;
}

/**
 * Moves the largest of `fields` out of `structured`, one at a time, until its JSON fits in a text
 * part: each moved field becomes null, with `<key>Resource` naming the URI to read it from.
 */
export function moveLargeFields(
  structured: Record<string, unknown>,
  fields: readonly MovableField[],
): { structured: Record<string, unknown>; links: ResourceLink[] } {
  const result = { ...structured };
  const links: ResourceLink[] = [];
  const sizeOf = (key: string): number => {
    const value = result[key];
    return typeof value === 'string' ? bytesOf(value) : 0;
  };
  const remaining = fields.filter((field) => sizeOf(field.key) > 0);
  while (bytesOf(JSON.stringify(result)) > TEXT_PART_MAX && remaining.length > 0) {
    remaining.sort((a, b) => sizeOf(b.key) - sizeOf(a.key));
    const field = remaining.shift()!;
    links.push({
      uri: field.uri,
      name: field.key,
      mimeType: field.mimeType,
      size: sizeOf(field.key),
    });
    result[field.key] = null;
    result[`${field.key}Resource`] = field.uri;
  }
  return { structured: result, links };
}

const TOO_LARGE_AS_TEXT =
  'The whole result is in structuredContent only: as JSON text it is over 64 KB. Ask for fewer ' +
  '(a smaller limit) to have it as text too.';

/** Structured content, the summary as text, the same JSON as text when it fits, and links. */
export function toCallToolResult({ structured, summary, links = [] }: ToolResult): CallToolResult {
  const json = JSON.stringify(structured);
  const fits = bytesOf(json) <= TEXT_PART_MAX;
  const text = fits ? summary : `${summary}\n\n${TOO_LARGE_AS_TEXT}`;
  return {
    structuredContent: structured,
    content: [
      { type: 'text', text: clip(text) },
      ...(fits ? [{ type: 'text' as const, text: json }] : []),
      ...links.map((link) => ({
        type: 'resource_link' as const,
        uri: link.uri,
        name: link.name,
        mimeType: link.mimeType,
        description: `${link.size} bytes; read it with resources/read`,
      })),
    ],
  };
}

/** A summary never outgrows a text part either. */
function clip(text: string): string {
  if (bytesOf(text) <= TEXT_PART_MAX) return text;
  return (
    Buffer.from(text, 'utf8')
      .subarray(0, TEXT_PART_MAX - 100)
      .toString('utf8') + '\n…'
  );
}
