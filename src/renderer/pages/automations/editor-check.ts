import { contract } from '../../../shared/contract/index.js';
import type { ApiError } from '../../../shared/errors.js';
import { checkInput, type FieldLabels, type LiveCheck } from '../../components/live-check.js';
import type { Draft } from './draft.js';

const LABELS: FieldLabels = { name: 'Name', prompt: 'Prompt' };

/** Name and prompt, checked as typed by the rule automations.create applies (triggers are checked on their cards). */
export function checkEditorFields(draft: Draft): LiveCheck {
  return checkInput(
    contract['automations.create'].input,
    { name: draft.name.trim(), prompt: draft.prompt, enabled: draft.enabled, triggers: [] },
    LABELS,
  );
}

/** Why Save waits while a field says what is wrong with it. */
export function typingBlock(typing: ApiError | undefined): string | null {
  if (!typing?.path) return null;
  const label = LABELS[typing.path] ?? 'field';
  return `Fix the ${label.toLowerCase()} above before saving.`;
}
