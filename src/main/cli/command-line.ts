import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * node:util parseArgs, except that `--name -value` gives a string option a
 * value starting with a dash. Generated secrets and IDs are base64url, so one
 * in 64 starts with `-`, and strict parseArgs would refuse it as ambiguous.
 * A following token that is itself one of our options is still not taken as
 * a value, so `--secret --id x` keeps failing loudly.
 */
export function parseCommandLine<T extends ParseArgsConfig & { args: string[]; options: Options }>(
  config: T,
): ReturnType<typeof parseArgs<T>> {
  return parseArgs<T>({ ...config, args: attachDashValues(config.args, config.options) });
}

function attachDashValues(args: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const token = args[i]!;
    const next = args[i + 1];
    if (
      takesValue(token, options) &&
      next !== undefined &&
      startsWithDash(next) &&
      !isOption(next, options)
    ) {
      out.push(`${token}=${next}`);
      i += 1;
    } else {
      out.push(token);
    }
    if (token === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
  }
  return out;
}

function takesValue(token: string, options: Options): boolean {
  if (!token.startsWith('--') || token.includes('=')) return false;
  return options[token.slice(2)]?.type === 'string';
}

function startsWithDash(token: string): boolean {
  return token.length > 1 && token.startsWith('-');
}

function isOption(token: string, options: Options): boolean {
  if (token.startsWith('--')) return token.slice(2).split('=', 1)[0]! in options;
  return Object.values(options).some(
    (option) => option.short !== undefined && token === `-${option.short}`,
  );
}
