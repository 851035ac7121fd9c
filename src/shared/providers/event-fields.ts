import { toEventType } from '../event-type-value.js';
import type { HeaderReader } from './description.js';

export { toEventType };

/** A top-level field of a parsed JSON object, or undefined. */
export function field(payload: unknown, key: string): unknown {
  return typeof payload === 'object' &&
    payload !== null &&
    !Array.isArray(payload) &&
    Object.hasOwn(payload, key)
    ? (payload as Record<string, unknown>)[key]
    : undefined;
}

/** A header's value as an event type; `name` as the provider spells it. */
export function headerEvent(read: HeaderReader, name: string): string | null {
  return toEventType(read(name.toLowerCase()));
}
