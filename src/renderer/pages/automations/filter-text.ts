import {
  filterWarnings,
  validateFilter,
  validateHeaderFilter,
  type PayloadFilter,
} from '../../../shared/filter/index.js';
import { formatPath } from '../../../shared/filter/path.js';
import { lineAndColumn, scanJson } from './json-scan.js';

export interface TextRange {
  start: number;
  end: number;
}

export type FilterCheck =
  | {
      ok: true;
      filter: PayloadFilter | undefined;
      /** Valid, but likely not what was meant (`$gt`): shown, never blocking a save. */
      warnings?: string[];
    }
  | { ok: false; message: string; range: TextRange | null };

/** Which filter a text box holds: its paths start with this name. */
export type FilterKind = 'payload' | 'headers';

/** Reads a payload (or header) filter as typed: empty means no filter (every delivery matches). */
export function checkFilterText(text: string, kind: FilterKind = 'payload'): FilterCheck {
  if (text.trim() === '') return { ok: true, filter: undefined };
  const scanned = scanJson(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (scanned.ok) {
      return { ok: false, message: `JSON syntax error: ${String(error)}`, range: null };
    }
  }
  if (!scanned.ok) {
    const { line, column } = lineAndColumn(text, scanned.position);
    return {
      ok: false,
      message: `JSON syntax error at line ${line}, column ${column}: ${scanned.message}`,
      range: { start: scanned.position, end: scanned.position + 1 },
    };
  }
  const checked =
    kind === 'payload' ? validateFilter(value, kind) : validateHeaderFilter(value, kind);
  if (checked.ok) {
    const warnings = filterWarnings(checked.filter, kind).map((w) => `${w.path}: ${w.message}`);
    return warnings.length > 0
      ? { ok: true, filter: checked.filter, warnings }
      : { ok: true, filter: checked.filter };
  }
  // JSON.parse keeps the last of duplicate keys, so the last spot with the path is the one meant.
  const spot = scanned.spots.findLast((s) => formatPath(s.path, kind) === checked.path);
  const whole = { start: text.length - text.trimStart().length, end: text.trimEnd().length };
  return {
    ok: false,
    message: `${checked.path}: ${checked.message}`,
    range: spot ? { start: spot.start, end: spot.end } : whole,
  };
}

/** The filter as the editor shows it: pretty JSON, or nothing for "no filter". */
export function filterToText(filter: PayloadFilter | undefined): string {
  return filter === undefined ? '' : JSON.stringify(filter, null, 2);
}
