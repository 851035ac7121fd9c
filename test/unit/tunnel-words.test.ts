import { describe, expect, it } from 'vitest';
import { parseTunnelKind } from '../../src/shared/contract/tunnel.js';
import { splitCommand } from '../../src/main/tunnels/split-command.js';
import { firstUrl } from '../../src/main/tunnels/tunnel.js';
import { ngrokError, notInstalled } from '../../src/main/tunnels/words.js';

describe('tunnel kinds as --tunnel names them', () => {
  it('reads each kind and refuses anything else', () => {
    expect(parseTunnelKind('cloudflared')).toEqual({ type: 'cloudflared' });
    expect(parseTunnelKind('ssh:-p 443 a.pinggy.io')).toEqual({
      type: 'ssh',
      destination: '-p 443 a.pinggy.io',
    });
    expect(parseTunnelKind('command:bore local {port} --to bore.pub')).toEqual({
      type: 'command',
      command: 'bore local {port} --to bore.pub',
    });
    expect(parseTunnelKind('ssh:')).toBeNull();
    expect(parseTunnelKind('wormhole')).toBeNull();
  });

  it('splits a command line as a shell would, without running one', () => {
    expect(splitCommand(`tool --name "two words" 'it''s' a\\ b`)).toEqual([
      'tool',
      '--name',
      'two words',
      'its',
      'a b',
    ]);
    expect(() => splitCommand('tool "open')).toThrow('the command has an unclosed " quote');
  });

  it('takes the first public URL a program prints, not the local address it forwards to', () => {
    const printed =
      'Forwarding to http://127.0.0.1:8787\nyour url is: https://abc.lhr.life/, share it.';
    expect(firstUrl(printed, 8787)).toBe('https://abc.lhr.life');
    expect(firstUrl('tunnel at http://10.0.0.5:9000.', 8787)).toBe('http://10.0.0.5:9000');
    expect(firstUrl('nothing here', 8787)).toBeNull();
  });
});

describe('tunnel errors in words', () => {
  it('says how to install a missing program on each platform', () => {
    expect(notInstalled('cloudflared', 'darwin').message).toBe(
      'cloudflared is not installed: brew install cloudflared (see https://developers.cloudflare.com/cloudflare-one/connections/connect-networks/downloads/)',
    );
    expect(notInstalled('tailscale', 'win32').message).toBe(
      'tailscale is not installed: winget install --id Tailscale.Tailscale (see https://tailscale.com/download)',
    );
    expect(notInstalled('cloudflared', 'linux').lasting).toBe(true);
  });

  it("maps ngrok's documented ERR_NGROK codes to their fixes", () => {
    // As @ngrok/ngrok reports them: the code in `errorCode`, ngrok's words in the message.
    const refused = Object.assign(
      new Error(
        'authentication failed: The authtoken you specified is not valid.\n\nERR_NGROK_105',
      ),
      { errorCode: 'ERR_NGROK_105' },
    );
    expect(ngrokError(refused).message).toMatch(
      /^ngrok refused the authtoken \(ERR_NGROK_105\): copy it again from https:\/\/dashboard\.ngrok\.com/,
    );
    expect(
      ngrokError(
        new Error('Your account is limited to 1 simultaneous ngrok agent sessions. ERR_NGROK_108'),
      ).message,
    ).toMatch(/^ngrok allows your account one agent session at a time \(ERR_NGROK_108\)/);
    expect(
      ngrokError(new Error('failed to connect session: failed to establish tcp connection'))
        .message,
    ).toBe(
      "ngrok could not reach its service (failed to connect session: failed to establish tcp connection): check this machine's internet connection; the relay keeps trying",
    );
    expect(ngrokError(new Error('something new ERR_NGROK_9999')).message).toBe(
      'ngrok refused the tunnel: something new ERR_NGROK_9999 (see https://ngrok.com/docs/errors/err-ngrok-9999)',
    );
  });
});
