import type { PathSegment } from '../../../shared/filter/path.js';

/** Where a key (or a list item) sits in the text, so a bad path can be underlined. */
export interface Spot {
  path: PathSegment[];
  start: number;
  end: number;
}

export type ScanResult =
  { ok: true; spots: Spot[] } | { ok: false; position: number; message: string };

class SyntaxProblem extends Error {
  constructor(
    readonly position: number,
    message: string,
  ) {
    super(message);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

/**
 * A JSON reader that keeps positions: JSON.parse's messages differ between engines and often
 * omit where the problem is, and the operator needs the line and column.
 */
class Scanner {
  private i = 0;
  readonly spots: Spot[] = [];

  constructor(private readonly text: string) {}

  scanDocument(): void {
    this.skipSpace();
    this.value([]);
    this.skipSpace();
    if (this.i < this.text.length) this.fail('unexpected text after the JSON value');
  }

  private fail(message: string): never {
    throw new SyntaxProblem(this.i, message);
  }

  private skipSpace(): void {
    while (this.i < this.text.length && ' \t\n\r'.includes(this.text[this.i] ?? '')) this.i++;
  }

  private value(path: PathSegment[]): void {
    const c = this.text[this.i];
    if (c === undefined) this.fail('the JSON ends too early');
    if (c === '{') return this.object(path);
    if (c === '[') return this.array(path);
    if (c === '"') {
      this.string();
      return;
    }
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return;
      }
    }
    NUMBER.lastIndex = this.i;
    const match = NUMBER.exec(this.text);
    if (match && match[0] !== '' && match[0] !== '-') {
      this.i += match[0].length;
      return;
    }
    this.fail(`unexpected ${JSON.stringify(c)}: expected a value (string, number, list, object)`);
  }

  private string(): string {
    const start = this.i;
    this.i++;
    while (this.i < this.text.length) {
      const c = this.text[this.i] ?? '';
      if (c === '"') {
        this.i++;
        return JSON.parse(this.text.slice(start, this.i)) as string;
      }
      if (c === '\\') {
        const next = this.text[this.i + 1] ?? '';
        if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.i + 2, this.i + 6))) {
          this.i += 6;
          continue;
        }
        if (!ESCAPES.has(next)) this.fail('a bad escape in a string');
        this.i += 2;
        continue;
      }
      if (c < ' ') this.fail('a line break or control character inside a string');
      this.i++;
    }
    this.i = start;
    this.fail('a string that is never closed');
  }

  private object(path: PathSegment[]): void {
    this.i++;
    this.skipSpace();
    if (this.text[this.i] === '}') {
      this.i++;
      return;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.i] !== '"') this.fail('expected a key in double quotes');
      const start = this.i;
      const key = this.string();
      this.spots.push({ path: [...path, key], start, end: this.i });
      this.skipSpace();
      if (this.text[this.i] !== ':') this.fail('expected ":" after the key');
      this.i++;
      this.skipSpace();
      this.value([...path, key]);
      this.skipSpace();
      const c = this.text[this.i];
      this.i++;
      if (c === '}') return;
      if (c !== ',') {
        this.i--;
        this.fail('expected "," or "}" after a value');
      }
    }
  }

  private array(path: PathSegment[]): void {
    this.i++;
    this.skipSpace();
    if (this.text[this.i] === ']') {
      this.i++;
      return;
    }
    for (let index = 0; ; index++) {
      this.skipSpace();
      const start = this.i;
      this.value([...path, index]);
      this.spots.push({ path: [...path, index], start, end: this.i });
      this.skipSpace();
      const c = this.text[this.i];
      this.i++;
      if (c === ']') return;
      if (c !== ',') {
        this.i--;
        this.fail('expected "," or "]" after a value');
      }
    }
  }
}

export function scanJson(text: string): ScanResult {
  const scanner = new Scanner(text);
  try {
    scanner.scanDocument();
    return { ok: true, spots: scanner.spots };
  } catch (error) {
    if (error instanceof SyntaxProblem) {
      return { ok: false, position: error.position, message: error.message };
    }
    // The reader recurses; a pasted document nested thousands deep is no filter anyway.
    if (error instanceof RangeError) {
      return { ok: false, position: 0, message: 'the JSON is nested too deeply' };
    }
    throw error;
  }
}

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  return { line, column: position - before.lastIndexOf('\n') };
}
