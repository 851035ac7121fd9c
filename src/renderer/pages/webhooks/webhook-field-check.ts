import { contract } from '../../../shared/contract/index.js';
import type { ApiError } from '../../../shared/errors.js';
import { checkInput } from '../../components/live-check.js';

type EditableField = 'name' | 'deliveryIdHeader' | 'eventTypePath';

/** Any well-formed UID: the rule checked here is the field's, not which webhook it is. */
const SOME_UID = `wh_${'0'.repeat(24)}`;

/**
 * One field of a webhook edited in place, checked as typed by the rule webhooks.update applies
 * (blank clears the optional ones).
 */
export const checkWebhookField =
  (field: EditableField, label: string) =>
  (value: string): ApiError | undefined => {
    const trimmed = value.trim();
    const sent = trimmed === '' && field !== 'name' ? null : trimmed;
    const check = checkInput(
      contract['webhooks.update'].input,
      { uid: SOME_UID, [field]: sent },
      { [field]: label },
    );
    return trimmed === '' ? check.submit : check.typing;
  };
