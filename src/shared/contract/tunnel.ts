import { z } from 'zod';
import { method } from './define.js';

/** The kinds of PRODUCT §18, as `--tunnel`, HOOKPORT_TUNNEL and Settings name them. */
export type TunnelSpec =
  | { type: 'cloudflared' }
  | { type: 'ngrok' }
  | { type: 'tailscale' }
  | { type: 'ssh'; destination: string }
  | { type: 'command'; command: string };

export const TUNNEL_KIND_WORDS =
  'must be cloudflared, ngrok, tailscale, ssh:<destination> or command:<program and arguments>';

/** `ssh:me@host` → {type: 'ssh', destination: 'me@host'}; null when it names no kind. */
export function parseTunnelKind(kind: string): TunnelSpec | null {
  const text = kind.trim();
  if (text === 'cloudflared' || text === 'ngrok' || text === 'tailscale') return { type: text };
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  const rest = text.slice(colon + 1).trim();
  if (rest === '') return null;
  const prefix = text.slice(0, colon);
  if (prefix === 'ssh') return { type: 'ssh', destination: rest };
  if (prefix === 'command') return { type: 'command', command: rest };
  return null;
}

/** How a banner and the tray name a kind: "cloudflared quick tunnel", "ssh to me@host". */
export function tunnelKindLabel(kind: string): string {
  const spec = parseTunnelKind(kind);
  switch (spec?.type) {
    case 'cloudflared':
      return 'cloudflared quick tunnel';
    case 'ngrok':
      return 'ngrok';
    case 'tailscale':
      return 'Tailscale Funnel';
    case 'ssh':
      return `ssh -R ${spec.destination}`;
    case 'command':
      return `command ${spec.command.split(/\s+/, 1)[0]?.split('/').at(-1) ?? ''}`;
    default:
      return kind;
  }
}

/** A tunnel the relay runs: its kind and, for ngrok, an optional reserved domain. */
export const tunnelChoiceSchema = z.strictObject({
  kind: z
    .string()
    .max(2048)
    .refine((kind) => parseTunnelKind(kind) !== null, { message: TUNNEL_KIND_WORDS })
    .transform((kind) => kind.trim()),
  domain: z
    .string()
    .max(253)
    .regex(/^[a-z0-9.-]+$/i, 'must be a host name such as hooks.ngrok.app')
    .nullable()
    .optional()
    .transform((domain) => (domain ? domain : null)),
});
export type TunnelChoice = z.output<typeof tunnelChoiceSchema>;

export const tunnelTestSchema = z.object({
  ok: z.boolean(),
  /** The public URL the tunnel got. */
  url: z.string().nullable(),
  /** What went wrong, in words, with its fix. */
  error: z.string().nullable(),
});
export type TunnelTest = z.infer<typeof tunnelTestSchema>;

export const tunnelMethods = {
  'tunnel.test': method({
    role: 'manage',
    summary: 'Start a tunnel of this kind once and answer its public URL or why it failed',
    http: { method: 'POST', path: '/api/tunnel/test' },
    input: tunnelChoiceSchema,
    output: tunnelTestSchema,
  }),
};
