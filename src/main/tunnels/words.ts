import { TunnelError } from './tunnel.js';

const CLOUDFLARED_INSTALL =
  'https://developers.cloudflare.com/cloudflare-one/connections/connect-networks/downloads/';

/** How to install each program, on the platform the relay runs on. */
const INSTALL: Record<string, Partial<Record<NodeJS.Platform, string>> & { any: string }> = {
  cloudflared: {
    darwin: 'brew install cloudflared',
    win32: 'winget install --id Cloudflare.cloudflared',
    linux: `the package for your distribution from ${CLOUDFLARED_INSTALL}`,
    any: `see ${CLOUDFLARED_INSTALL}`,
  },
  tailscale: {
    darwin: 'brew install tailscale (or the app from the Mac App Store)',
    win32: 'winget install --id Tailscale.Tailscale',
    linux: 'curl -fsSL https://tailscale.com/install.sh | sh',
    any: 'see https://tailscale.com/download',
  },
  ssh: {
    darwin: 'ssh ships with macOS',
    win32: 'Settings → System → Optional features → OpenSSH Client',
    linux: 'apt install openssh-client (or your distribution’s openssh package)',
    any: 'install an OpenSSH client',
  },
};

/** "cloudflared is not installed: brew install cloudflared (see https://…)". */
export function notInstalled(program: string, platform = process.platform): TunnelError {
  const ways = INSTALL[program];
  if (!ways) {
    return new TunnelError(
      `${program} was not found: install it or give its full path in the command`,
      true,
    );
  }
  const here = ways[platform];
  const how = here ? `${here} (${ways.any})` : ways.any;
  return new TunnelError(`${program} is not installed: ${how}`, true);
}

/**
 * ngrok's documented error codes (https://ngrok.com/docs/errors/) that a user can fix, with
 * the fix. Any other code is shown as ngrok worded it.
 */
const NGROK_FIXES: Record<string, string> = {
  ERR_NGROK_105:
    'ngrok refused the authtoken (ERR_NGROK_105): copy it again from https://dashboard.ngrok.com/get-started/your-authtoken and rotate the team secret ngrok-authtoken',
  ERR_NGROK_106:
    'ngrok refused the authtoken (ERR_NGROK_106): copy it again from https://dashboard.ngrok.com/get-started/your-authtoken and rotate the team secret ngrok-authtoken',
  ERR_NGROK_107:
    'ngrok refused the authtoken (ERR_NGROK_107: it was reset or deleted): create a new one at https://dashboard.ngrok.com/get-started/your-authtoken and rotate the team secret ngrok-authtoken',
  ERR_NGROK_108:
    'ngrok allows your account one agent session at a time (ERR_NGROK_108): stop the other ngrok agent, or upgrade the account',
  ERR_NGROK_121:
    'ngrok says this agent version is too old for your account (ERR_NGROK_121): update Hookport',
  ERR_NGROK_313:
    'ngrok refused the domain (ERR_NGROK_313): reserve it at https://dashboard.ngrok.com/domains, or leave the tunnel domain empty',
  ERR_NGROK_320:
    'ngrok refused the domain (ERR_NGROK_320: it belongs to another account): reserve your own at https://dashboard.ngrok.com/domains',
  ERR_NGROK_334:
    'ngrok says this domain is already online (ERR_NGROK_334): stop the other tunnel that uses it, or choose another domain',
  ERR_NGROK_4018:
    'ngrok needs an authtoken (ERR_NGROK_4018): create the team secret ngrok-authtoken with the authtoken from https://dashboard.ngrok.com/get-started/your-authtoken',
  ERR_NGROK_8012:
    'ngrok could not reach the relay (ERR_NGROK_8012): is the ingress listener still up?',
};

export const NGROK_NEEDS_AUTHTOKEN =
  'ngrok needs an authtoken: create the team secret ngrok-authtoken (or set NGROK_AUTHTOKEN) with the authtoken from https://dashboard.ngrok.com/get-started/your-authtoken';

/** An error from @ngrok/ngrok, in words with its fix. */
export function ngrokError(error: unknown): TunnelError {
  const raw = error instanceof Error ? error.message : String(error);
  const withCode = error as { errorCode?: unknown };
  const code =
    typeof withCode.errorCode === 'string' ? withCode.errorCode : /ERR_NGROK_\d+/.exec(raw)?.[0];
  const fix = code ? NGROK_FIXES[code] : undefined;
  if (fix)
    return new TunnelError(
      fix,
      code === 'ERR_NGROK_4018' || code?.startsWith('ERR_NGROK_10') === true,
    );
  if (/failed to (connect session|establish tcp connection)|dns|resolve/i.test(raw)) {
    return new TunnelError(
      `ngrok could not reach its service (${raw}): check this machine's internet connection; the relay keeps trying`,
    );
  }
  return new TunnelError(
    `ngrok refused the tunnel: ${raw}${code ? ` (see https://ngrok.com/docs/errors/${code.toLowerCase().replace(/_/g, '-')})` : ''}`,
  );
}

/** What a tunnel program's last lines say went wrong, in words, or null when they say nothing known. */
export function programFailure(program: string, output: string): string | null {
  if (/failed to request quick Tunnel/i.test(output)) {
    return 'cloudflared could not get a quick tunnel from trycloudflare.com ("failed to request quick Tunnel"): check the internet connection; Cloudflare also limits how many quick tunnels one address may open, so wait a minute';
  }
  if (/remote port forwarding failed|port forwarding failed for listen port/i.test(output)) {
    return `${program}: the remote port is already forwarded (another tunnel, or a left-over ssh, holds it): stop it or forward another port`;
  }
  if (/Permission denied \(publickey/i.test(output)) {
    return `${program}: the server refused the key (Permission denied (publickey)): add your public key to the server, or name one with -i`;
  }
  if (/Host key verification failed/i.test(output)) {
    return `${program}: the server's host key is not known: connect once with ssh by hand to accept it`;
  }
  if (/Funnel is not enabled|funnel.*not (enabled|allowed)/i.test(output)) {
    return 'Tailscale Funnel is not enabled for this tailnet or node: enable it in the admin console (https://login.tailscale.com/admin/acls, "funnel" node attribute) and run tailscale up';
  }
  if (/Logged out|NeedsLogin|not logged in/i.test(output)) {
    return 'tailscale is not logged in: run tailscale up';
  }
  return null;
}
