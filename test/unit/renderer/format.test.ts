import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../../src/renderer/components/format.js';

/** A delivery's size in Recent deliveries: short, but never hiding that a body was too large. */
describe('formatBytes', () => {
  it('rounds sizes within the ingress limit', () => {
    expect(formatBytes(87)).toBe('87 B');
    expect(formatBytes(1230)).toBe('1.2 KB');
    expect(formatBytes(262_144)).toBe('256 KB');
  });

  it('writes a body just over the 262,144-byte limit in exact bytes, so it reads as over', () => {
    expect(formatBytes(262_145)).toBe('262,145 B');
    expect(formatBytes(1_048_575)).toBe('1,048,575 B');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
  });
});
