/**
 * Event types (PRODUCT.md §13) come from the sender, so they are bounded and kept printable:
 * they appear in the list, in PROMPT.md and in a command's environment.
 */
export const MAX_EVENT_TYPE_LENGTH = 200;
// Control characters (C0, DEL, C1) never make a usable event type; NUL would break an environment.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** A value read from a header or the body as an event type, or null when it cannot be one. */
export function toEventType(value: unknown): string | null {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else if (typeof value === 'boolean') text = String(value);
  else return null;
  if (text === '' || text.length > MAX_EVENT_TYPE_LENGTH || CONTROL.test(text)) return null;
  return text;
}
