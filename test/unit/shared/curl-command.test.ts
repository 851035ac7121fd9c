import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlCommand, shellQuote, type CurlInput } from '../../../src/shared/curl-command.js';

const base: CurlInput = {
  ingressUrl: 'http://127.0.0.1:8787/webhooks/w/wh_aaaaaaaaaaaaaaaaaaaaaaaa',
  authMode: 'token',
  signatureScheme: null,
  hmacHeader: null,
  path: '/webhooks/w/wh_aaaaaaaaaaaaaaaaaaaaaaaa?source=ci',
  headers: [
    ['Host', '127.0.0.1:8787'],
    ['Authorization', '[redacted]'],
    ['Content-Type', 'application/json'],
    ['X-Note', "it's here"],
    ['x-tag', 'a'],
    ['X-Tag', 'b'],
    ['Content-Length', '12'],
    ['Connection', 'keep-alive'],
  ],
  body: '{"a":"it\'s"}',
  bodyFile: 'dlv_x.json',
};

/** What a POSIX shell makes of the words: each argument on a line of its own. */
function shellWords(command: string, env: Record<string, string>): string[] {
  const script = command.replace(/^#.*\n/gm, '').replace(/^curl /, 'printf "%s\\n" ');
  return execFileSync('sh', ['-c', script], { env: { PATH: process.env.PATH, ...env } })
    .toString('utf8')
    .split('\n')
    .slice(0, -1);
}

describe('Copy as curl', () => {
  it('keeps the headers in order (repeats too), drops transport headers, and asks for $SECRET', () => {
    const command = curlCommand(base);
    expect(command.variables).toEqual(['SECRET']);
    expect(command.bodyInFile).toBe(false);
    expect(command.text.split('\n')[0]).toBe(
      '# Set SECRET first: the relay never stores credentials.',
    );
    expect(shellWords(command.text, { SECRET: 's3cret' })).toEqual([
      '-i',
      '-X',
      'POST',
      'http://127.0.0.1:8787/webhooks/w/wh_aaaaaaaaaaaaaaaaaaaaaaaa?source=ci',
      '-H',
      'Authorization: Bearer s3cret',
      '-H',
      'Content-Type: application/json',
      '-H',
      "X-Note: it's here",
      '-H',
      'x-tag: a',
      '-H',
      'X-Tag: b',
      '--data-binary',
      '{"a":"it\'s"}',
    ]);
  });

  it('puts a URL token and signature headers in variables, and says to sign again', () => {
    const command = curlCommand({
      ...base,
      ingressUrl: 'https://hooks.example/webhooks/w/wh_aaaaaaaaaaaaaaaaaaaaaaaa/{token}',
      authMode: 'signature',
      signatureScheme: 'github',
      headers: [
        ['X-GitHub-Event', 'issues'],
        ['X-Hub-Signature-256', '[redacted]'],
      ],
      path: '/webhooks/w/wh_aaaaaaaaaaaaaaaaaaaaaaaa/{token}',
    });
    expect(command.variables).toEqual(['TOKEN', 'X_HUB_SIGNATURE_256']);
    expect(command.text).toContain('sign it again');
    const words = shellWords(command.text, { TOKEN: 't0k', X_HUB_SIGNATURE_256: 'sha256=ab' });
    expect(words).toContain('https://hooks.example/webhooks/w/wh_aaaaaaaaaaaaaaaaaaaaaaaa/t0k');
    expect(words).toContain('X-Hub-Signature-256: sha256=ab');
  });

  it('reads a large body, or one never stored, from a file', () => {
    const large = curlCommand({ ...base, body: `{"x":"${'a'.repeat(5000)}"}` });
    expect(large.bodyInFile).toBe(true);
    expect(large.text).toContain("--data-binary '@dlv_x.json'");
    expect(large.text).toContain('# Save the payload as dlv_x.json first');
    const none = curlCommand({ ...base, body: null });
    expect(none.text).toContain(
      '# The relay keeps no body for this entry: put the body in dlv_x.json.',
    );
  });

  it('leaves a header literally "[redacted]" alone when it is no credential', () => {
    const command = curlCommand({ ...base, headers: [['X-Comment', '[redacted]']] });
    expect(command.variables).toEqual([]);
    expect(command.text).toContain("-H 'X-Comment: [redacted]'");
  });

  it('quotes for a POSIX shell', () => {
    expect(shellWords(`curl ${shellQuote("a'b $HOME `x` \\")}`, {})).toEqual(["a'b $HOME `x` \\"]);
  });
});
