import type { RunningTunnel, TunnelContext, TunnelKind } from './tunnel.js';
import { TunnelError } from './tunnel.js';
import { NGROK_NEEDS_AUTHTOKEN, ngrokError } from './words.js';

export const NGROK_SECRET = 'ngrok-authtoken';

/** ngrok authtokens are letters, digits and underscores; anything else is a paste gone wrong. */
const AUTHTOKEN = /^[A-Za-z0-9_]{20,200}$/;

/**
 * `ngrok`: the ngrok agent in process through @ngrok/ngrok, with the authtoken from the team
 * secret `ngrok-authtoken` (or NGROK_AUTHTOKEN) and an optional reserved domain.
 */
export const ngrokTunnel: TunnelKind = {
  label: 'ngrok',
  program: 'ngrok',
  async start(context: TunnelContext): Promise<RunningTunnel> {
    const token = context.secret(NGROK_SECRET) ?? context.env.NGROK_AUTHTOKEN;
    if (!token) throw new TunnelError(NGROK_NEEDS_AUTHTOKEN, true);
    if (!AUTHTOKEN.test(token.trim())) {
      throw new TunnelError(
        'ngrok would refuse this authtoken (ERR_NGROK_105: it has characters no authtoken has): copy it again from https://dashboard.ngrok.com/get-started/your-authtoken and rotate the team secret ngrok-authtoken',
        true,
      );
    }
    const ngrok = await import('@ngrok/ngrok');
    let lost: (why: string) => void = () => undefined;
    const stopped = new Promise<string>((resolve) => (lost = resolve));
    try {
      const listener = await ngrok.forward({
        addr: `127.0.0.1:${context.port}`,
        authtoken: token.trim(),
        ...(context.domain ? { domain: context.domain } : {}),
        onStatusChange: (status) => {
          if (status === 'closed') lost('ngrok lost its connection to the ngrok service');
        },
      });
      const url = listener.url();
      if (!url) throw new TunnelError('ngrok started a tunnel without a URL');
      return { url, stopped, stop: () => listener.close() };
    } catch (error) {
      throw error instanceof TunnelError ? error : ngrokError(error);
    }
  },
};
