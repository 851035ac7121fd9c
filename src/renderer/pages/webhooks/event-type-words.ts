import { providerOf } from '../../../shared/providers/index.js';
import type { SignatureSchemeName } from '../../../shared/signature-schemes.js';

export { takesEventTypePath } from '../../../shared/providers/index.js';

/** Where a provider scheme names its event (§13), in the operator's words; null if it does not. */
export const schemeEventSource = (scheme: SignatureSchemeName): string | null =>
  providerOf(scheme).eventType?.words ?? null;

export const EVENT_TYPE_PATH_HINT =
  'A dotted path into the JSON body (type, event.type), or header:<name> (header:X-Event). Blank: no event type.';
