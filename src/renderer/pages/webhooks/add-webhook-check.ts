import { contract, type MethodInput } from '../../../shared/contract/index.js';
import { ApiError } from '../../../shared/errors.js';
import { checkInput, type LiveCheck } from '../../components/live-check.js';

const LABELS = {
  name: 'Name',
  secretName: 'Secret name',
  secret: 'Signing secret',
  deliveryIdHeader: 'Delivery ID header',
  eventTypePath: 'Event type path',
  'signatureOptions.header': 'Signature header',
  'signatureOptions.prefix': 'Prefix',
};

/** Add webhook's fields as typed, by the rule webhooks.create applies on the relay. */
export function checkNewWebhook(toInput: () => MethodInput<'webhooks.create'>): LiveCheck {
  let input: MethodInput<'webhooks.create'>;
  try {
    input = toInput();
  } catch (failure) {
    // A choice not yet made (which team secret): said on Create, not while typing.
    if (failure instanceof ApiError) return { typing: undefined, submit: failure };
    throw failure;
  }
  return checkInput(contract['webhooks.create'].input, input, LABELS);
}
