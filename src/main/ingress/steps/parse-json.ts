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
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    // Only now is it worth looking at the whole text again (trimming copies a large body).
    if (/^\s*$/.test(text)) return { ok: false, reason: 'body is empty; send a JSON value' };
    const position = /position (\d+)/.exec(String(error))?.[1];
    return {
      ok: false,
      reason: position
        ? `body is not valid JSON near character ${position}`
        : 'body is not valid JSON',
    };
  }
}
