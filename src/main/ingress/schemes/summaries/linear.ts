import { genericSummary, oneLine, text, type Payload } from './summary-text.js';

/**
 * Linear (linear.app/developers/webhooks): `type` (`Issue`, `Comment`…), `action` (`create`,
 * `update`, `remove`) and `data`; an issue's `identifier` (`ENG-12`) and `title`.
 */
export function linearSummary(eventType: string | null, payload: Payload): string | null {
  const action = text(payload, 'action');
  const identifier = text(payload, 'data', 'identifier');
  const title = text(payload, 'data', 'title') ?? text(payload, 'data', 'body');
  if (identifier === undefined && title === undefined) return genericSummary(eventType, payload);
  const head = [eventType, action].filter(Boolean).join(' ');
  const what = identifier === undefined ? (title ?? '') : `${identifier}: ${title ?? ''}`;
  return oneLine(`${head} ${what}`);
}
