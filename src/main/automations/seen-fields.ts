import type { SeenField } from '../../shared/contract/filter-lab.js';
import { MAX_FILTER_DEPTH } from '../../shared/filter/index.js';
import { formatPath } from '../../shared/filter/path.js';
import { renderValue } from '../../shared/filter/render.js';

/** Array elements looked into per array: paths are about shape, and shapes repeat. */
const ELEMENTS_READ = 100;

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The JSON paths a payload filter can name, gathered from stored payloads for autocomplete.
 * Paths read as the filter reads them: arrays are looked through (`labels.name` for an array of
 * objects), a field holding scalars or an array of scalars is listed with the first value seen.
 */
export class SeenFields {
  private readonly fields = new Map<string, { keys: string[]; example: unknown; seenIn: number }>();
  private truncated = false;

  constructor(private readonly maxPaths: number) {}

  add(payload: unknown): void {
    const here = new Set<string>();
    this.walk(payload, [], here);
    for (const path of here) this.fields.get(path)!.seenIn += 1;
  }

  private walk(value: unknown, path: string[], here: Set<string>): void {
    if (path.length > MAX_FILTER_DEPTH) return;
    if (Array.isArray(value)) {
      const objects = value.slice(0, ELEMENTS_READ).filter(isObject);
      if (objects.length === 0 || objects.length < Math.min(value.length, ELEMENTS_READ)) {
        this.note(path, value, here);
      }
      for (const item of objects) this.walk(item, path, here);
      return;
    }
    if (isObject(value)) {
      for (const key of Object.keys(value)) this.walk(value[key], [...path, key], here);
      return;
    }
    this.note(path, value, here);
  }

  private note(path: string[], value: unknown, here: Set<string>): void {
    if (path.length === 0) return;
    const key = formatPath(path);
    if (!this.fields.has(key)) {
      if (this.fields.size >= this.maxPaths) {
        this.truncated = true;
        return;
      }
      this.fields.set(key, { keys: path, example: value, seenIn: 0 });
    }
    here.add(key);
  }

  result(): { items: SeenField[]; truncated: boolean } {
    const items = [...this.fields].map(([path, { keys, example, seenIn }]) => ({
      path,
      keys,
      example: renderValue(example),
      type: typeOf(example),
      seenIn,
    }));
    items.sort((a, b) => b.seenIn - a.seenIn || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { items, truncated: this.truncated };
  }
}
