import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/shared/errors.js';
import { besideField, errorAt } from '../../../src/renderer/components/field-errors.js';

describe('an API error shown beside its field', () => {
  const refused = new ApiError(
    'invalid_input',
    'executor.cwd: must be an absolute path',
    'executor.cwd',
  );

  it('drops the path the label already says, and starts with a capital', () => {
    expect(errorAt(refused, 'executor.cwd')).toBe('Must be an absolute path');
    expect(errorAt(refused, 'executor')).toBe('Must be an absolute path');
    expect(besideField(refused)).toBe('Must be an absolute path');
  });

  it('is not claimed by another field, and keeps a message that does not start with its path', () => {
    expect(errorAt(refused, 'executor.command')).toBeUndefined();
    expect(errorAt(refused, 'exec')).toBeUndefined();
    const plain = new ApiError('invalid_input', 'Choose at least one webhook.', 'triggers');
    expect(besideField(plain)).toBe('Choose at least one webhook.');
    expect(errorAt(new ApiError('conflict', 'value: taken'), 'value')).toBeUndefined();
  });
});
