import type { z } from 'zod';
import { contract, type MethodInput, type MethodName } from '../../shared/contract/index.js';
import { ApiError } from '../../shared/errors.js';

/**
 * Checks a form as the operator types, with the very schema the relay checks it with (the
 * contract's input), and says the first problem as a sentence about what was typed.
 */
export interface LiveCheck {
  /** The first problem in what has been typed (a blank field is not a problem yet). */
  typing: ApiError | undefined;
  /** The first problem in the input as it would be sent, blanks included: shown on Save. */
  submit: ApiError | undefined;
}

/** What each field is called on screen, by its path in the input ("executor.command"). */
export type FieldLabels = Record<string, string>;

type Issue = z.core.$ZodIssue;

const pathOf = (issue: Issue): string => issue.path.map(String).join('.');

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function withValueAt(input: unknown, path: readonly PropertyKey[], next: unknown): unknown {
  if (path.length === 0) return next;
  const [key, ...rest] = path;
  const copy: Record<PropertyKey, unknown> = Array.isArray(input)
    ? (Array.from(input as unknown[]) as unknown as Record<PropertyKey, unknown>)
    : { ...(input as Record<PropertyKey, unknown>) };
  copy[key!] = withValueAt(copy[key!], rest, next);
  return copy;
}

const isBlank = (value: unknown): boolean =>
  value === undefined || (typeof value === 'string' && value.trim() === '');

function charName(c: string): string {
  if (c === ' ') return 'spaces';
  if (/\s/.test(c)) return 'tabs or line breaks';
  return `“${c}”`;
}

function listed(words: string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} or ${words.at(-1)!}`;
}

/**
 * A pattern refused `value`: find out why by asking the same schema about small variations
 * (which characters it refuses, whether the start or the length is the trouble) and offer a
 * corrected value when one passes. Null when the variations tell nothing.
 */
function patternSentence(accepts: (value: string) => boolean, value: string): string | null {
  if (!accepts('a') && !accepts('aa') && !accepts('aaa')) return null;
  const refused = [...new Set(value)].filter((c) => !accepts(`a${c}a`));
  if (refused.length > 0) {
    const isRefused = (c: string): boolean => refused.includes(c);
    const fixed = [...value]
      .map((c) => (isRefused(c) ? '-' : c))
      .join('')
      .replace(/-{2,}/g, '-')
      .replace(/^[^A-Za-z0-9]+|-+$/g, '');
    const offer = fixed !== '' && accepts(fixed) ? `: try “${fixed}”` : '';
    return `It can’t contain ${listed(refused.map(charName))}${offer}.`;
  }
  if (value.length > 1 && accepts(`a${value.slice(1)}`)) {
    return `It can’t start with “${value[0]}”: start with a letter or digit.`;
  }
  let longest = 0;
  while (longest < value.length && accepts(value.slice(0, longest + 1))) longest += 1;
  if (longest > 0 && longest < value.length) {
    return `It can be at most ${longest} characters (this has ${value.length}).`;
  }
  return null;
}

function numberRange(issue: Issue): string | null {
  if (issue.code === 'too_small' && issue.origin === 'number') {
    return `must be ${String(issue.minimum)} or more`;
  }
  if (issue.code === 'too_big' && issue.origin === 'number') {
    return `must be ${String(issue.maximum)} or less`;
  }
  if (issue.code === 'invalid_type' && issue.expected === 'int') return 'must be a whole number';
  if (issue.code === 'invalid_type' && issue.expected === 'number') return 'must be a number';
  return null;
}

/** One issue as a sentence about the value typed into the field the issue names. */
function sentenceFor(schema: z.ZodType, input: unknown, issue: Issue, labels: FieldLabels): string {
  const path = pathOf(issue);
  const label = labels[path] ?? 'This';
  const value = valueAt(input, issue.path);
  if (issue.code === 'too_big' && issue.origin === 'string' && typeof value === 'string') {
    return `${label} can be at most ${String(issue.maximum)} characters (this has ${value.length}).`;
  }
  if (isBlank(value) || (issue.code === 'too_small' && issue.origin === 'string'))
    return `${label} is required.`;
  const range = numberRange(issue);
  if (range) return `${label} ${range}.`;
  if (issue.code === 'invalid_format' && typeof value === 'string') {
    const samePath = (other: Issue): boolean => pathOf(other) === path;
    const accepts = (candidate: string): boolean => {
      const result = schema.safeParse(withValueAt(input, issue.path, candidate));
      return result.success || !result.error.issues.some(samePath);
    };
    const said = patternSentence(accepts, value);
    if (said) return said.startsWith('It ') ? `${label} ${said.slice(3)}` : said;
  }
  const rule = issue.message.replace(/\.$/, '');
  if (typeof value === 'string' && value !== '') {
    // The usual slips (a URL without its scheme, spaces): offered only when the rule takes it.
    const accepts = (candidate: string): boolean =>
      !(schema.safeParse(withValueAt(input, issue.path, candidate)).error?.issues ?? []).some(
        (other) => pathOf(other) === path,
      );
    const schemeless = !value.includes('://') && /\bURL\b/i.test(rule);
    const candidates = [
      ...(schemeless ? [`https://${value.trim()}`] : []),
      value.trim().replace(/\s+/g, '-'),
    ];
    const fix = candidates.find((candidate) => candidate !== value && accepts(candidate));
    if (fix) return `${label} ${rule}: try “${fix}”.`;
  }
  return `${label} ${rule}.`;
}

/**
 * Checks `input` against `schema`; labels name the fields in the sentences. Only the fields
 * labelled are this form's to check (others, such as triggers, are checked where they are shown).
 */
export function checkInput(schema: z.ZodType, input: unknown, labels: FieldLabels): LiveCheck {
  const result = schema.safeParse(input);
  if (result.success) return { typing: undefined, submit: undefined };
  const ours = (issue: Issue): boolean =>
    Object.keys(labels).some((path) => {
      const at = pathOf(issue);
      return at === path || at.startsWith(`${path}.`);
    });
  const toError = (issue: Issue | undefined): ApiError | undefined =>
    issue &&
    new ApiError('invalid_input', sentenceFor(schema, input, issue, labels), pathOf(issue));
  const issues = result.error.issues.filter(ours);
  return {
    typing: toError(issues.find((issue) => !isBlank(valueAt(input, issue.path)))),
    submit: toError(issues[0]),
  };
}

/** Checks a contract method's input: the form and the relay share one rule. */
export function checkMethodInput<M extends MethodName>(
  method: M,
  input: MethodInput<M>,
  labels: FieldLabels,
): LiveCheck {
  return checkInput(contract[method].input, input, labels);
}
