// fatal: invalid UTF-8 is an error, not U+FFFD. ignoreBOM false: one leading BOM is skipped; a
// second one reaches JSON.parse and fails, as PRODUCT.md §3 wants.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

export type ParseResult = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * Parses for evaluation only. The stored payload stays the raw bytes; nothing re-serializes the
 * parsed value. Reasons never quote the body (rejected entries keep metadata only).
 */
export function parseJsonBody(body: Buffer): ParseResult {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return { ok: false, reason: 'body is not valid UTF-8' };
  }
  if (text.trim() === '') return { ok: false, reason: 'body is empty; send a JSON value' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const position = /position (\d+)/.exec(String(error))?.[1];
    return {
      ok: false,
      reason: position
        ? `body is not valid JSON near character ${position}`
        : 'body is not valid JSON',
    };
  }
}
