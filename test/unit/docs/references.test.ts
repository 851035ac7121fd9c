import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(join(REPO, dir), { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => pattern.test(path) && statSync(join(REPO, path)).isFile());
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdownFile: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(join(REPO, markdownFile), 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) anchors.add(slug(heading[1]!));
  }
  return anchors;
}

/** Section numbers a spec file's headings carry (`## 3. Ingress`, `### 2.5.1 Webhook …`). */
function sectionsOf(specFile: string): Set<string> {
  const numbers = new Set<string>();
  for (const line of readFileSync(join(REPO, specFile), 'utf8').split('\n')) {
    const heading = /^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s/.exec(line);
    if (heading) numbers.add(heading[1]!);
  }
  return numbers;
}

const markdown = ['README.md', ...filesUnder('docs', /\.md$/)];
const code = [...filesUnder('src', /\.(ts|tsx|css)$/), ...filesUnder('test', /\.ts$/)];

describe('documentation references', () => {
  it('every relative link between markdown files reaches a file, and its #anchor a heading', () => {
    const broken: string[] = [];
    for (const file of markdown) {
      const text = readFileSync(join(REPO, file), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const resolved = path === '' ? file : relative(REPO, resolve(REPO, dirname(file), path));
        if (!existsSync(join(REPO, resolved))) broken.push(`${file}: ${target} (no such file)`);
        else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
          broken.push(`${file}: ${target} (no heading #${anchor})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('every docs/…md#anchor the code cites exists', () => {
    const broken: string[] = [];
    for (const file of code) {
      const text = readFileSync(join(REPO, file), 'utf8');
      for (const [, path, anchor] of text.matchAll(/\b(docs\/[\w./-]+\.md)(?:#([\w-]+))?/g)) {
        if (!existsSync(join(REPO, path!))) broken.push(`${file}: ${path} (no such file)`);
        else if (anchor && !anchorsOf(path!).has(anchor)) broken.push(`${file}: ${path}#${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every §N the code cites is a section of the product spec (or, as "seed §N", of the seed)', () => {
    const product = sectionsOf('docs/spec/PRODUCT.md');
    const seed = sectionsOf('docs/spec/seed-webhook-ingress.md');
    const broken: string[] = [];
    for (const file of code) {
      const text = readFileSync(join(REPO, file), 'utf8');
      for (const [cited, before, number] of text.matchAll(
        /((?:RFC\s+\d+|\w+)\s+)?§\s?(\d+(?:\.\d+)*)/g,
      )) {
        if (before?.startsWith('RFC')) continue;
        const sections = /^seed\s/i.test(before ?? '') ? seed : product;
        if (!sections.has(number!)) broken.push(`${file}: ${cited}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the spec in docs/ says where it comes from, so the two copies are kept in step', () => {
    expect(readFileSync(join(REPO, 'docs/spec/README.md'), 'utf8')).toContain('shared/spec');
  });
});
