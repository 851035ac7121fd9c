import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { resourceNameSchema } from '../../shared/contract/common.js';
import {
  automationFrontMatterSchema,
  promptSchema,
  webhookFileSchema,
  type AutomationDefinition,
  type WebhookDefinition,
} from './formats.js';
import { DefinitionError, type DefinitionProblem } from './problems.js';
import { issuesToProblems, parseYaml } from './yaml-lines.js';

/** What a definition directory asks for, before it is compared with the relay's state. */
export interface DesiredState {
  webhooks: WebhookDefinition[];
  automations: AutomationDefinition[];
  /** Files in the definition folders that are not definitions (left alone, listed in the plan). */
  ignored: string[];
}

const MAX_FILE_BYTES = 1024 * 1024;
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

function listFiles(dir: string, folder: string): string[] {
  const path = join(dir, folder);
  if (!existsSync(path)) return [];
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
    .map((entry) => `${folder}/${entry.name}`)
    .sort();
}

function readText(dir: string, file: string, problems: DefinitionProblem[]): string | null {
  const path = join(dir, file);
  if (statSync(path).size > MAX_FILE_BYTES) {
    problems.push({
      file,
      line: null,
      key: null,
      message: 'is larger than 1 MB; a definition never is',
    });
    return null;
  }
  return readFileSync(path, 'utf8');
}

function nameOf(file: string, problems: DefinitionProblem[]): string | null {
  const name = basename(file, extname(file));
  if (resourceNameSchema.safeParse(name).success) return name;
  problems.push({
    file,
    line: null,
    key: null,
    message:
      'the file name is the name: use 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit',
  });
  return null;
}

function readWebhook(
  dir: string,
  file: string,
  problems: DefinitionProblem[],
): WebhookDefinition | null {
  const name = nameOf(file, problems);
  const text = readText(dir, file, problems);
  if (name === null || text === null) return null;
  const source = parseYaml(file, text);
  if (Array.isArray(source)) return (problems.push(...source), null);
  if (source.value === null || source.value === undefined) {
    problems.push({
      file,
      line: null,
      key: null,
      message: 'is empty; a webhook file needs at least secretName',
    });
    return null;
  }
  const parsed = webhookFileSchema.safeParse(source.value);
  if (!parsed.success) return (problems.push(...issuesToProblems(source, parsed.error)), null);
  return { ...parsed.data, name, file, lineOf: source.lineOf };
}

function readAutomation(
  dir: string,
  file: string,
  problems: DefinitionProblem[],
): AutomationDefinition | null {
  const fileName = nameOf(file, problems);
  const text = readText(dir, file, problems);
  if (fileName === null || text === null) return null;
  const match = FRONT_MATTER.exec(text);
  if (!match) {
    problems.push({
      file,
      line: 1,
      key: null,
      message: 'must start with YAML front matter between two "---" lines',
    });
    return null;
  }
  const source = parseYaml(file, match[1]!, 2);
  if (Array.isArray(source)) return (problems.push(...source), null);
  const front = automationFrontMatterSchema.safeParse(source.value ?? {});
  if (!front.success) return (problems.push(...issuesToProblems(source, front.error)), null);
  const prompt = text.slice(match[0].length);
  const promptCheck = promptSchema.safeParse(prompt);
  if (!promptCheck.success) {
    const promptLine = match[0].split('\n').length;
    problems.push({
      file,
      line: promptLine,
      key: null,
      message: promptCheck.error.issues[0]!.message,
    });
    return null;
  }
  return {
    ...front.data,
    name: front.data.name ?? fileName,
    prompt: prompt.trim(),
    file,
    lineOf: source.lineOf,
  };
}

function refuseDuplicates(
  items: Array<{ name: string; file: string }>,
  what: string,
  problems: DefinitionProblem[],
): void {
  const seen = new Map<string, string>();
  for (const item of items) {
    const first = seen.get(item.name);
    if (first)
      problems.push({
        file: item.file,
        line: null,
        key: null,
        message: `defines ${what} "${item.name}" again (also in ${first})`,
      });
    else seen.set(item.name, item.file);
  }
}

/** Reads and validates every definition; throws a DefinitionError listing every problem found. */
export function readDefinitions(dir: string): DesiredState {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new DefinitionError([
      { file: dir, line: null, key: null, message: 'is not a directory' },
    ]);
  }
  const problems: DefinitionProblem[] = [];
  const ignored: string[] = [];
  const webhooks: WebhookDefinition[] = [];
  const automations: AutomationDefinition[] = [];
  for (const file of listFiles(dir, 'webhooks')) {
    if (!/\.ya?ml$/.test(file)) ignored.push(file);
    else {
      const webhook = readWebhook(dir, file, problems);
      if (webhook) webhooks.push(webhook);
    }
  }
  for (const file of listFiles(dir, 'automations')) {
    if (!file.endsWith('.md')) ignored.push(file);
    else {
      const automation = readAutomation(dir, file, problems);
      if (automation) automations.push(automation);
    }
  }
  refuseDuplicates(webhooks, 'the webhook', problems);
  refuseDuplicates(automations, 'the automation', problems);
  if (problems.length > 0) throw new DefinitionError(problems);
  return { webhooks, automations, ignored };
}
