import Router from '@koa/router';
import Koa, { type Context } from 'koa';
import { ApiError } from '../../shared/errors.js';
import type { EventBus } from '../events.js';
import { describeError, type Logger } from '../log.js';
import type { Caller, ServiceHandlers } from '../service/handlers.js';
import type { AdminAuth, TokenHolder } from './auth.js';
import { EventStreams } from './event-stream.js';
import { lazyKoaBody } from './lazy-body.js';
import { loopbackGuard } from './guard.js';
import { mountContractRoutes } from './http-transport.js';
import { staticUi } from './static-ui.js';
import { MCP_PATH, mcpEndpoint } from '../mcp/http-endpoint.js';
import type { RunTokens } from '../mcp/run-tokens.js';
import type { StoreKind } from '../store/store.js';

export const SESSION_COOKIE = 'hookport_session';
const SESSION_MAX_AGE_MS = 30 * 24 * 60 * 60_000;
/** Where a used or unknown login link goes: the sign-in form, with the reason (LoginPage.tsx). */
export const USED_LOGIN_LINK_TARGET = '/?signin=link-used';

export interface AdminDeps {
  service: ServiceHandlers;
  auth: AdminAuth;
  events: EventBus;
  /** The built UI (out/renderer), or null when serving the API alone. */
  uiDir: string | null;
  /** GET /metrics: Prometheus text format, for any valid token (manage or view). */
  metrics: { contentType: string; text(): Promise<string> };
  /** The port this app is bound to, for the Host check; known once the listener is up. */
  port: () => number;
  /** Which store the relay runs on, for the health check. */
  storeKind: StoreKind;
  log: Logger;
  /** Tokens of running `command` runs: they open `/mcp` and nothing else (§21). */
  runTokens?: RunTokens;
}

export interface AdminApp {
  app: Koa;
  streams: EventStreams;
}

const BEARER = /^Bearer[ ]+(\S+)$/i;

/** Why koa-body refused a request body, in the caller's terms. */
function bodyError(error: Error): ApiError {
  if ((error as { status?: unknown }).status === 413)
    return new ApiError('payload_too_large', 'The request body is over 1 MB.');
  if (/prototype/i.test(error.message))
    return new ApiError('invalid_input', 'The request body must not use the key "__proto__".');
  return new ApiError('invalid_input', 'The request body is not valid JSON.');
}

const UNAUTHENTICATED =
  'Send "Authorization: Bearer <admin token>", or open the login link that `hookport serve` printed.';

/** The loopback admin listener: management API, login, event stream and the UI. */
export function createAdminApp(deps: AdminDeps): AdminApp {
  const app = new Koa();
  app.silent = true;
  const streams = new EventStreams(deps.events);

  const authenticate = async (ctx: Context): Promise<Caller> => {
    const header = ctx.get('authorization');
    if (header !== '') {
      const match = BEARER.exec(header);
      const role = match ? await deps.auth.roleForToken(match[1]!) : null;
      if (!role)
        throw new ApiError('unauthorized', 'That admin token is not valid. ' + UNAUTHENTICATED);
      return { role };
    }
    const session = ctx.cookies.get(SESSION_COOKIE);
    const role = session ? await deps.auth.roleForSession(session) : null;
    if (!role) throw new ApiError('unauthorized', UNAUTHENTICATED);
    return { role };
  };

  /** Whether the credential a request came with is still good, without noting a use. */
  const stillAuthenticated = async (ctx: Context): Promise<boolean> => {
    const header = ctx.get('authorization');
    if (header !== '') {
      const match = BEARER.exec(header);
      return match !== null && (await deps.auth.isValidToken(match[1]!));
    }
    const session = ctx.cookies.get(SESSION_COOKIE);
    return session !== undefined && (await deps.auth.roleForSession(session)) !== null;
  };

  const setSession = async (ctx: Context, holder: TokenHolder): Promise<void> => {
    ctx.cookies.set(SESSION_COOKIE, await deps.auth.startSession(holder), {
      httpOnly: true,
      sameSite: 'strict',
      path: '/',
      maxAge: SESSION_MAX_AGE_MS,
      overwrite: true,
    });
  };

  app.use(async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Frame-Options', 'DENY');
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined)
        throw new ApiError('not_found', `Nothing at ${ctx.method} ${ctx.path}.`);
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.code === 'internal')
        deps.log.error(`[admin] ${ctx.method} ${ctx.path}: ${describeError(error)}`);
      ctx.status = apiError.status;
      ctx.body = apiError.toBody();
    }
  });
  app.use(loopbackGuard(deps.port));
  app.use(async (ctx, next) => {
    if (ctx.path.startsWith('/api/')) ctx.set('Cache-Control', 'no-store');
    const hasBody = ctx.request.length > 0 || ctx.get('transfer-encoding') !== '';
    const isApiWrite = ctx.path.startsWith('/api/') && !['GET', 'HEAD'].includes(ctx.method);
    if (hasBody && isApiWrite && !ctx.is('application/json')) {
      throw new ApiError(
        'invalid_input',
        'Send the request body as JSON (Content-Type: application/json).',
      );
    }
    await next();
  });
  app.use(
    lazyKoaBody({
      jsonLimit: '1mb',
      jsonStrict: true,
      multipart: false,
      urlencoded: false,
      text: false,
      onError: (error) => {
        throw bodyError(error);
      },
    }),
  );

  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { ok: true, store: deps.storeKind };
  });
  router.get('/login', async (ctx) => {
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    const holder = token ? await deps.auth.redeemLogin(token) : null;
    if (!holder && (await stillAuthenticated(ctx))) {
      // A used link opened again (a bookmark, a restored tab) by someone already signed in.
      ctx.status = 303;
      ctx.redirect('/');
      return;
    }
    if (!holder) {
      // To the sign-in form, which says in one sentence why the link did not sign in.
      ctx.status = 303;
      ctx.redirect(USED_LOGIN_LINK_TARGET);
      return;
    }
    await setSession(ctx, holder);
    ctx.status = 303;
    ctx.redirect('/');
  });
  router.post('/api/session', async (ctx) => {
    const token = (ctx.request.body as { token?: unknown } | undefined)?.token;
    const holder = typeof token === 'string' ? await deps.auth.holderOf(token) : null;
    if (!holder) throw new ApiError('unauthorized', 'That admin token is not valid.', 'token');
    await setSession(ctx, holder);
    ctx.body = { role: holder.role };
  });
  router.delete('/api/session', async (ctx) => {
    const session = ctx.cookies.get(SESSION_COOKIE);
    if (session) await deps.auth.endSession(session);
    ctx.cookies.set(SESSION_COOKIE, null, { path: '/' });
    ctx.body = { ok: true };
  });
  router.get('/api/events', async (ctx) => {
    await authenticate(ctx);
    // Asked again before every event: a revoked token or ended session stops the stream at once.
    streams.attach(ctx, () => stillAuthenticated(ctx));
  });
  router.get('/metrics', async (ctx) => {
    await authenticate(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = deps.metrics.contentType;
    ctx.body = await deps.metrics.text();
  });
  router.all(MCP_PATH, mcpEndpoint(deps));
  mountContractRoutes(router, deps.service, authenticate);

  app.use(router.routes());
  app.use(router.allowedMethods({ throw: false }));
  app.use(staticUi(deps.uiDir));
  return { app, streams };
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiError(
      'invalid_input',
      status === 413 ? 'The request body is too large (1 MB at most).' : 'Bad request.',
    );
  }
  return new ApiError('internal', 'The relay hit an internal error; the log has the details.');
}
