import type { PayloadFilter } from '../../src/shared/filter/index.js';

/** Ten conditions over nested fields, operators and an array of objects: a realistic GitHub filter. */
export const TEN_KEY_FILTER: PayloadFilter = {
  action: ['opened', 'synchronize'],
  installation: { id: 42 },
  repository: {
    full_name: 'acme/api',
    private: false,
    owner: { login: { exists: true } },
  },
  pull_request: {
    state: { in: ['open'] },
    draft: false,
    base: { ref: 'main' },
    labels: { name: ['bug', 'needs-triage'] },
  },
  sender: { type: { not_in: ['Bot'] } },
};

/**
 * A pull-request delivery of about `targetBytes` that matches TEN_KEY_FILTER. The matching
 * label comes last, and the size is made of changed files, as in large real deliveries.
 */
export function pullRequestPayload(targetBytes: number, action = 'opened'): string {
  const labels = Array.from({ length: 19 }, (_, i) => ({
    id: i,
    name: `area-${i}`,
    color: 'ededed',
  }));
  labels.push({ id: 99, name: 'bug', color: 'd73a4a' });
  const base = {
    action,
    number: 1347,
    installation: { id: 42 },
    repository: {
      id: 1296269,
      full_name: 'acme/api',
      private: false,
      owner: { login: 'acme', id: 1 },
    },
    sender: { login: 'octocat', id: 583231, type: 'User' },
    pull_request: {
      id: 1,
      state: 'open',
      draft: false,
      title: 'Fix the flux capacitor',
      body: 'Long description. '.repeat(20),
      base: { ref: 'main', sha: '6dcb09b5b57875f334f61aebed695e2e4193db5e' },
      head: { ref: 'fix', sha: 'a10867b14bb761a232cd80139fbd4c0d33264240' },
      labels,
    },
    files: [] as Array<{ filename: string; additions: number; patch: string }>,
  };
  let text = JSON.stringify(base);
  for (let i = 0; text.length < targetBytes; i++) {
    base.files.push({
      filename: `src/module-${i}.ts`,
      additions: i % 50,
      patch: '+ line\n'.repeat(40),
    });
    text = JSON.stringify(base);
  }
  return text;
}
