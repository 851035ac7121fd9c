/** One thing wrong with a definition directory, pointing at the line to fix. */
export interface DefinitionProblem {
  /** Relative to the definitions directory, e.g. `webhooks/github.yaml`; `webhooks/` for the folder. */
  file: string;
  line: number | null;
  /** Dotted key path inside the file, e.g. `secretName` or `triggers.0.filter.webhook_ids.1`. */
  key: string | null;
  message: string;
}

/** `webhooks/github.yaml:3: secretName: no team secret named "gh"; create it first` */
export function formatProblem(p: DefinitionProblem): string {
  const where = p.line === null ? p.file : `${p.file}:${p.line}`;
  return p.key ? `${where}: ${p.key}: ${p.message}` : `${where}: ${p.message}`;
}

/** `webhooks/github.yaml:3:secretName`: where to look, for an API error's `path`. */
export function problemPath(p: DefinitionProblem): string {
  return [p.file, p.line, p.key].filter((part) => part !== null).join(':');
}

export class DefinitionError extends Error {
  override name = 'DefinitionError';
  constructor(readonly problems: DefinitionProblem[]) {
    super(problems.map(formatProblem).join('\n'));
  }
}
