import { describe, expect, it } from 'vitest';
import { BoundedOutput } from '../../../src/main/runs/executors/bounded-output.js';

const feed = (limit: number, chunks: string[]): string | null => {
  const output = new BoundedOutput(limit);
  for (const chunk of chunks) output.push(Buffer.from(chunk));
  return output.text();
};

describe('BoundedOutput', () => {
  it('is null when nothing was written', () => {
    expect(feed(10, [])).toBeNull();
  });

  it('shows a NUL byte as U+FFFD, which every store can keep', () => {
    expect(feed(10, ['a\u0000b'])).toBe('a\uFFFDb');
  });

  it('keeps everything that fits, in order', () => {
    expect(feed(10, ['abc', 'de', 'fghij'])).toBe('abcdefghij');
  });

  it('keeps the beginning and the end and says how much of the middle it dropped', () => {
    expect(feed(10, ['abcdefgh', 'ijklmnop', 'qrstuvwxyz'])).toBe(
      'abcde\n[… 16 bytes of output not kept …]\nvwxyz',
    );
  });

  it('stays bounded however many chunks arrive', () => {
    const output = new BoundedOutput(100);
    for (let i = 0; i < 10_000; i++) output.push(Buffer.from(`line ${i}\n`));
    const text = output.text()!;
    expect(text.startsWith('line 0\nline 1\n')).toBe(true);
    expect(text.endsWith('line 9999\n')).toBe(true);
    expect(text.length).toBeLessThan(160);
    expect(output.byteLength).toBeGreaterThan(80_000);
  });
});
