import { describe, expect, it } from 'vitest';
import type { SeenField } from '../../../src/shared/contract/filter-lab.js';
import { addField } from '../../../src/renderer/pages/automations/add-field.js';

const field = (keys: string[], example: string, type = 'string'): SeenField => ({
  path: keys.join('.'),
  keys,
  example,
  type,
  seenIn: 1,
});

describe('adding a seen field to the payload filter', () => {
  it('nests it as the payload does, starting as equal to the example', () => {
    const result = addField(
      '{"action": "opened"}',
      field(['pull_request', 'draft'], 'false', 'boolean'),
    );
    expect(result).toEqual({
      ok: true,
      text: JSON.stringify({ action: 'opened', pull_request: { draft: false } }, null, 2),
    });
    expect(addField('', field(['labels', 'name'], '"bug"'))).toEqual({
      ok: true,
      text: JSON.stringify({ labels: { name: 'bug' } }, null, 2),
    });
  });

  it('asks for presence when the example is a list, an object or cut short', () => {
    const cut = field(['body'], `"${'x'.repeat(199)}…`);
    expect(addField('{}', cut)).toMatchObject({
      text: expect.stringContaining('"exists": true') as unknown,
    });
    expect(addField('{}', field(['tags'], '["a"]', 'array'))).toMatchObject({ ok: true });
  });

  it('refuses, saying why, where the filter cannot take it', () => {
    expect(addField('{"a":', field(['x'], '1', 'number'))).toEqual({
      ok: false,
      message: 'Fix the filter’s JSON first, then add the field.',
    });
    expect(addField('[1]', field(['x'], '1', 'number'))).toMatchObject({ ok: false });
    expect(addField('{"action":"x"}', field(['action'], '"y"'))).toEqual({
      ok: false,
      message: 'action is in the filter already.',
    });
    expect(addField('{"pr":{"exists":true}}', field(['pr', 'draft'], 'true', 'boolean'))).toEqual({
      ok: false,
      message: 'pr already tests a value; edit it by hand.',
    });
  });
});
