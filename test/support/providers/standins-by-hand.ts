import { createServer } from 'node:http';
import { GitHubStandin } from './github-standin.js';
import { GitLabStandin } from './gitlab-standin.js';
import { StripeStandin } from './stripe-standin.js';

/**
 * The three provider stand-ins for trying links by hand (docs/guide/provider-links.md):
 *   node --import tsx test/support/providers/standins-by-hand.ts [control port, default 4790]
 * prints each stand-in's API base URL and token, and answers on the control port:
 *   POST /github/hooks {repo, url, secret}      POST /github/send {hookId, event, payload}
 *   POST /github/edit {hookId, active?, contentType?}
 *   POST /gitlab/hooks {project, url, token}    POST /gitlab/send {hookId, event, payload}
 *   POST /stripe/endpoints {url, secret}        POST /stripe/emit {type, data}
 *   GET /state  (hooks, deliveries and the API requests each stand-in received)
 * A send while the relay is stopped fails to connect and is recorded failed, as the provider does.
 */
const TOKENS = { github: 'ghp_by_hand', gitlab: 'glpat-by-hand', stripe: 'sk_test_by_hand' };
const github = await new GitHubStandin(TOKENS.github).start();
const gitlab = await new GitLabStandin(TOKENS.gitlab).start();
const stripe = await new StripeStandin(TOKENS.stripe).start();

type Body = Record<string, unknown>;
const str = (b: Body, key: string): string => {
  const value = b[key];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
};
const obj = (b: Body, key: string) => (b[key] ?? {}) as Record<string, unknown>;
const actions: Record<string, (b: Body) => unknown> = {
  'POST /github/hooks': (b) => github.addHook(str(b, 'repo'), str(b, 'url'), str(b, 'secret')),
  'POST /github/send': (b) =>
    github.send(github.hooks.get(Number(b.hookId))!, str(b, 'event'), obj(b, 'payload')),
  'POST /github/edit': (b) => {
    // What a person does on the hook's settings page: turn it off, change its content type.
    const hook = github.hooks.get(Number(b.hookId))!;
    if (b.active !== undefined) hook.active = Boolean(b.active);
    if (str(b, 'contentType')) hook.config.content_type = str(b, 'contentType');
    return hook;
  },
  'POST /gitlab/hooks': (b) => gitlab.addHook(str(b, 'project'), str(b, 'url'), str(b, 'token')),
  'POST /gitlab/send': (b) =>
    gitlab.send(gitlab.hooks.get(Number(b.hookId))!, str(b, 'event'), obj(b, 'payload')),
  'POST /stripe/endpoints': (b) => stripe.addEndpoint(str(b, 'url'), str(b, 'secret')),
  'POST /stripe/emit': (b) => stripe.emit(str(b, 'type'), obj(b, 'data')),
  'GET /state': () => ({
    github: { hooks: [...github.hooks.values()], deliveries: github.deliveries },
    gitlab: { hooks: [...gitlab.hooks.values()], events: gitlab.events },
    stripe: { endpoints: [...stripe.endpoints.values()], events: stripe.events },
    requests: {
      github: github.server.requests.map((r) => `${r.method} ${r.path}`),
      gitlab: gitlab.server.requests.map((r) => `${r.method} ${r.path}`),
      stripe: stripe.server.requests.map((r) => `${r.method} ${r.path}`),
    },
  }),
};

const port = Number(process.argv[2] ?? 4790);
createServer((req, res) => {
  let text = '';
  req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  req.on('end', () => {
    const action = actions[`${req.method} ${req.url}`];
    const run = (): Promise<unknown> =>
      Promise.resolve(action ? action(text ? (JSON.parse(text) as Body) : {}) : null);
    run().then(
      (answer) => {
        res.writeHead(action ? 200 : 404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            answer,
            (_k, v: unknown) => (v instanceof Map ? (Object.fromEntries(v) as unknown) : v),
            2,
          ),
        );
      },
      (error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      },
    );
  });
}).listen(port, '127.0.0.1');
console.log(`control  http://127.0.0.1:${port}`);
console.log(`github   ${github.url}  token ${TOKENS.github}`);
console.log(`gitlab   ${gitlab.apiBaseUrl}  token ${TOKENS.gitlab}`);
console.log(`stripe   ${stripe.url}  key ${TOKENS.stripe}`);
