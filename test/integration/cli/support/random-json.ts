/**
 * Random JSON bodies for the property test, from a seeded generator so that a failure can be
 * replayed (HOOKPORT_PROPERTY_SEED=<seed>).
 */

export type Random = () => number;

/** mulberry32: small, fast, good enough to pick test inputs. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;

/** ASCII, JSON's escapes, Latin-1, CJK, an emoji (a surrogate pair in UTF-16), a lone BOM char. */
const CHARACTERS = [
  'a',
  'Z',
  '0',
  ' ',
  '"',
  '\\',
  '/',
  '\n',
  '\t',
  '\u0000',
  '\u001f',
  '\u00e9',
  '\u00fc',
  '\u00df',
  '\u20ac',
  '\u2603',
  '\u65e5',
  '\u672c',
  '\u{1f600}',
  '\u{1f44d}',
  '\ufeff',
];

function randomString(random: Random, maxLength = 12): string {
  let text = '';
  const length = Math.floor(random() * maxLength);
  for (let i = 0; i < length; i++) text += pick(random, CHARACTERS);
  return text;
}

function randomValue(random: Random, depth: number): unknown {
  const kind = Math.floor(random() * (depth > 2 ? 4 : 6));
  switch (kind) {
    case 0:
      return randomString(random);
    case 1:
      return Math.round((random() - 0.5) * 1e6) / (random() < 0.5 ? 1 : 1000);
    case 2:
      return pick(random, [true, false, null]);
    case 3:
      return pick(random, [0, -1, 1e21, 1.5e-7, Number.MAX_SAFE_INTEGER]);
    case 4:
      return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
    default:
      return randomObject(random, depth + 1);
  }
}

function randomObject(random: Random, depth: number): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  const keys = Math.floor(random() * 5);
  for (let i = 0; i < keys; i++) object[randomString(random, 6)] = randomValue(random, depth);
  return object;
}

export interface BodyShape {
  /** Only a JSON object (Linear needs one to carry webhookTimestamp). */
  object: boolean;
  /** Always carry non-ASCII text (else it is up to chance). */
  nonAscii: boolean;
  /** Total size in bytes to pad to, or null to leave as generated. */
  size: number | null;
  bom: boolean;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** A valid JSON text in random layout, optionally after a BOM and padded to an exact size. */
export function randomJsonBody(random: Random, shape: BodyShape): Buffer {
  let value = shape.object || random() < 0.5 ? randomObject(random, 0) : randomValue(random, 0);
  if (shape.nonAscii) {
    value = shape.object
      ? {
          ...(value as object),
          'n\u00f8te \u2603': `caf\u00e9 \u65e5\u672c \u{1f600}${randomString(random)}`,
        }
      : [value, 'caf\u00e9 \u65e5\u672c \u{1f600}'];
  }
  const indent = pick(random, [undefined, 2, '\t']);
  const text = JSON.stringify(value, null, indent);
  const head = Buffer.concat([shape.bom ? BOM : Buffer.alloc(0), Buffer.from(text, 'utf8')]);
  if (shape.size === null) return random() < 0.3 ? Buffer.concat([head, Buffer.from('\n')]) : head;
  // Trailing whitespace is insignificant in JSON: it pads to the exact size without changing the value.
  if (head.length > shape.size) throw new Error('generated body is larger than the size asked for');
  return Buffer.concat([head, Buffer.alloc(shape.size - head.length, ' ')]);
}
