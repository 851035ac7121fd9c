import { afterAll, describe, expect, it } from 'vitest';
import { SIGNATURE_SCHEMES } from '../../../src/shared/signature-schemes.js';
import { send } from '../../../src/main/cli/send.js';
import { UsageError } from '../../../src/main/cli/usage.js';
import { bodyFile, removeBodyFiles, runSend, runSendAll } from './support/run-send.js';

const URL = 'http://127.0.0.1:9/webhooks/w/wh_abcdefghijklmnopqrstuvwx';

describe('hookport send: a wrong command line exits 2 with a message naming the flag', () => {
  afterAll(removeBodyFiles);

  // In process (the same `send` the CLI runs): one process start per case would take long on a
  // shared machine. The exit code and usage text are checked by spawning, below.
  it('for every kind of mistake, before anything is sent', async () => {
    const body = bodyFile('{}');
    const cases: [string[], RegExp][] = [
      [[], /send needs the ingress URL/],
      [[URL], /--body FILE is required/],
      [[URL, '--body'], /Option '--body <value>' argument missing/],
      [[URL, '--body', body, '--sign'], /Unknown option '--sign'/],
      [['ftp://example.com/x', '--body', body], /<ingress-url> must be an http\(s\) URL/],
      [[URL, URL, '--body', body], /send takes one <ingress-url>, not 2 arguments/],
      [
        [URL, '--body', '/nonexistent/x.json'],
        /--body: cannot read "\/nonexistent\/x.json" \(ENOENT\)/,
      ],
      [
        [URL, '--body', body, '--scheme', 'bitbucket', '--secret', 's'],
        new RegExp(`--scheme must be one of: ${SIGNATURE_SCHEMES.join(', ')}`),
      ],
      [[URL, '--body', body, '--scheme', 'github'], /--scheme github needs --secret/],
      [[URL, '--body', body, '--secret='], /--secret must not be empty/],
      [
        [URL, '--body', body, '--scheme', 'hmac-sha256', '--secret', 's'],
        /needs --hmac-header NAME/,
      ],
      [
        [
          URL,
          '--body',
          body,
          '--scheme',
          'hmac-sha256',
          '--secret',
          's',
          '--hmac-header',
          'X-Sig',
          '--hmac-encoding',
          'base32',
        ],
        /--hmac-encoding must be hex or base64/,
      ],
      [
        [URL, '--body', body, '--scheme', 'hmac-sha256', '--secret', 's', '--hmac-header', 'X Sig'],
        /--hmac-header must be an HTTP header name/,
      ],
      [
        [URL, '--body', body, '--scheme', 'github', '--secret', 's', '--hmac-header', 'X-Sig'],
        /--hmac-header, --hmac-encoding and --hmac-prefix only go with --scheme hmac-sha256/,
      ],
      [
        [URL, '--body', body, '--scheme', 'github', '--secret', 's', '--timestamp', '1700000000'],
        /--timestamp: the github scheme signs no timestamp/,
      ],
      [
        [URL, '--body', body, '--scheme', 'stripe', '--secret', 's', '--timestamp', 'yesterday'],
        /--timestamp must be Unix seconds/,
      ],
      [[URL, '--body', body, '--timestamp', '1700000000'], /--timestamp goes with --scheme/],
      [
        [URL, '--body', body, '--id', ' padded'],
        /--id must be 1 to 200 printable ASCII characters/,
      ],
      [
        [URL, '--body', body, '--header', 'Content-Length: 5'],
        /--header: hookport sets Content-Length itself/,
      ],
      [
        [URL, '--body', body, '--scheme', 'standard-webhooks', '--secret', 'whsec_not base64!'],
        /--secret cannot be used with the standard-webhooks scheme: secret is not whsec_ followed by base64/,
      ],
    ];

    for (const [args, message] of cases) {
      const error: unknown = await send(args).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      const label = args.join(' ');
      const isUsage =
        error instanceof UsageError ||
        (error as { code?: string } | null)?.code?.startsWith('ERR_PARSE_ARGS') === true;
      expect(isUsage, `${label}: ${String(error)}`).toBe(true);
      expect((error as Error).message, label).toMatch(message);
      expect((error as Error).message, label).not.toContain('not base64!');
    }
  });

  it('exits 2, prints the message and the usage, and nothing on stdout', async () => {
    const runs = await runSendAll([[URL], [URL, '--body', bodyFile('{}'), '--sign']]);

    expect(runs.map((run) => run.code)).toEqual([2, 2]);
    expect(runs[0]!.stderr).toMatch(/^hookport: --body FILE is required .*\n\nUsage:\n/s);
    expect(runs[1]!.stderr).toMatch(/^hookport: Unknown option '--sign'.*Usage:/s);
    expect(runs.map((run) => run.stdout)).toEqual(['', '']);
  });

  it('never echoes a malformed --header line, which may hold a credential', async () => {
    const run = await runSend([
      URL,
      '--body',
      bodyFile('{}'),
      '--header',
      'Authorization Bearer tok_live_secret',
    ]);

    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--header must be NAME:VALUE/);
    expect(run.stderr).not.toContain('tok_live_secret');
  });

  it('--help explains every flag and exits 0', async () => {
    const run = await runSend(['--help']);

    expect(run.code).toBe(0);
    for (const flag of [
      '--body',
      '--secret',
      '--scheme',
      '--id',
      '--header',
      '--timestamp',
      '--hmac-header',
    ]) {
      expect(run.stdout).toContain(flag);
    }
    expect(run.stdout).toContain(SIGNATURE_SCHEMES.join(', '));
  });
});
