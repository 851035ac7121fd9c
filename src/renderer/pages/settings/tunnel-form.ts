import type { TunnelChoice } from '../../../shared/contract/tunnel.js';

export type TunnelFormKind = 'none' | 'cloudflared' | 'ngrok' | 'tailscale' | 'ssh' | 'command';

export const KIND_TEXT: Record<TunnelFormKind, string> = {
  none: 'None',
  cloudflared: 'cloudflared',
  ngrok: 'ngrok',
  tailscale: 'Tailscale Funnel',
  ssh: 'ssh -R',
  command: 'A command',
};

export const KIND_HINT: Record<TunnelFormKind, string> = {
  none: 'No tunnel: senders reach the ingress at the public base URL above, or at its own address.',
  cloudflared:
    'A Cloudflare quick tunnel through your installed cloudflared: no account needed; the URL changes at every start (provider links keep hooks pointed).',
  ngrok:
    'The ngrok agent inside the relay. Its authtoken is the team secret ngrok-authtoken (or NGROK_AUTHTOKEN); a reserved domain keeps the URL the same.',
  tailscale: 'tailscale funnel --bg on the ingress port; the URL is this machine’s Tailscale name.',
  ssh: 'ssh -R to a tunnel service (nokey@localhost.run, -p 443 a.pinggy.io) or your own server, whose URL is then the public base URL above.',
  command:
    'Any program that prints its public URL; {port} in its arguments is the ingress port, e.g. bore local {port} --to bore.pub.',
};

export interface TunnelDraft {
  kind: TunnelFormKind;
  domain: string;
  destination: string;
  command: string;
}

export function draftOf(choice: TunnelChoice | null): TunnelDraft {
  const draft: TunnelDraft = { kind: 'none', domain: '', destination: '', command: '' };
  if (!choice) return draft;
  if (choice.kind.startsWith('ssh:'))
    return { ...draft, kind: 'ssh', destination: choice.kind.slice(4) };
  if (choice.kind.startsWith('command:'))
    return { ...draft, kind: 'command', command: choice.kind.slice(8) };
  const kind = choice.kind as TunnelFormKind;
  return { ...draft, kind, domain: choice.domain ?? '' };
}

/** What Save and Test send: the kind as `--tunnel` names it. */
export function choiceOf(draft: TunnelDraft): { kind: string; domain?: string | null } | null {
  switch (draft.kind) {
    case 'none':
      return null;
    case 'ssh':
      return { kind: `ssh:${draft.destination.trim()}` };
    case 'command':
      return { kind: `command:${draft.command.trim()}` };
    case 'ngrok':
      return { kind: 'ngrok', domain: draft.domain.trim() || null };
    default:
      return { kind: draft.kind };
  }
}
