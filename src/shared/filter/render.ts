/** Longest rendering of a payload value shown in a failure, before the `…`. */
export const MAX_RENDER_LENGTH = 200;

class Budget {
  readonly parts: string[] = [];
  length = 0;
  constructor(readonly limit: number) {}
  get spent(): boolean {
    return this.length > this.limit;
  }
  push(text: string): void {
    this.parts.push(text);
    this.length += text.length;
  }
}

// Slicing first keeps a 256 KB string from being escaped in full just to be cut.
function quote(text: string, budget: Budget): string {
  return JSON.stringify(text.length > budget.limit ? text.slice(0, budget.limit + 1) : text);
}

function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

// Every level writes at least one character before descending and stops once the budget is
// spent, so recursion is bounded by the limit however deep the value is.
function write(value: unknown, budget: Budget): void {
  if (budget.spent) return;
  if (typeof value === 'string') return budget.push(quote(value, budget));
  if (typeof value === 'number')
    return budget.push(Number.isFinite(value) ? String(value) : 'null');
  if (typeof value === 'boolean' || typeof value === 'bigint') return budget.push(String(value));
  if (value === null || typeof value !== 'object') return budget.push('null');
  if (Array.isArray(value)) {
    budget.push('[');
    for (let i = 0; i < value.length && !budget.spent; i++) {
      if (i > 0) budget.push(',');
      const item: unknown = value[i];
      write(isSkipped(item) ? null : item, budget);
    }
    return budget.push(']');
  }
  const record = value as Readonly<Record<string, unknown>>;
  budget.push('{');
  let first = true;
  for (const key in record) {
    if (budget.spent) break;
    if (!Object.hasOwn(record, key) || isSkipped(record[key])) continue;
    budget.push(`${first ? '' : ','}${quote(key, budget)}:`);
    first = false;
    write(record[key], budget);
  }
  budget.push('}');
}

function cut(text: string, limit: number): string {
  let end = limit;
  // Do not leave half of a surrogate pair before the ellipsis.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** JSON rendering of a value, cut to `limit` characters; never throws, whatever the value. */
export function renderValue(value: unknown, limit = MAX_RENDER_LENGTH): string {
  const budget = new Budget(limit);
  try {
    write(value, budget);
  } catch {
    // A hostile getter or proxy: show what was rendered before it threw.
    return cut(budget.parts.join(''), Math.min(limit, budget.length));
  }
  const text = budget.parts.join('');
  return text.length > limit ? cut(text, limit) : text;
}
