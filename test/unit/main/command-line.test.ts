import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../../src/main/cli/command-line.js';

const OPTIONS = {
  secret: { type: 'string' },
  id: { type: 'string' },
  header: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parse(args: string[]) {
  return parseCommandLine({ args, options: OPTIONS, allowPositionals: true });
}

describe('the command line', () => {
  it('takes a value that starts with a dash, as one in 64 generated secrets does', () => {
    const { values } = parse(['--secret', '-Xk3_token', '--id', '-1', '--header', '-X:1']);

    expect(values).toMatchObject({ secret: '-Xk3_token', id: '-1', header: ['-X:1'] });
  });

  it('still refuses an option where a value should be, instead of swallowing it', () => {
    expect(() => parse(['--secret', '--id', 'x'])).toThrow(/'--secret' argument is ambiguous/);
    expect(() => parse(['--secret', '-h'])).toThrow(/'--secret' argument is ambiguous/);
  });

  it('leaves --name=value, booleans, a lone dash and everything after -- alone', () => {
    const { values, positionals } = parse(['--secret=-a', '--json', '-', '--', '--id', '-b']);

    expect(values).toEqual({ secret: '-a', json: true });
    expect(positionals).toEqual(['-', '--id', '-b']);
  });
});
