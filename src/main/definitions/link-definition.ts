import { z } from 'zod';
import { resourceNameSchema } from '../../shared/contract/common.js';
import {
  apiBaseUrlSchema,
  DEFAULT_API_BASE_URLS,
  linkKindSchema,
  targetProblem,
} from '../../shared/contract/links.js';
import type { LinkRecord } from '../store/links.js';
import type { DefinitionProblem } from './problems.js';

/**
 * A webhook file's `link:` map (PRODUCT §19): the keys `PUT /api/webhooks/:uid/link` takes. The
 * credential is named, never written: `tokenSecretName` is a team secret holding the token.
 */
export const linkFileSchema = z
  .strictObject({
    kind: linkKindSchema,
    target: z.string().trim().min(1, 'required').max(400),
    tokenSecretName: resourceNameSchema,
    apiBaseUrl: apiBaseUrlSchema.optional(),
    keepPointed: z.boolean().default(true),
    recover: z.boolean().default(true),
  })
  .superRefine((link, ctx) => {
    const problem = targetProblem(link.kind, link.target);
    if (problem) {
      ctx.addIssue({ code: 'custom', path: ['target'], message: problem.replace(/^target: /, '') });
    }
  });
export type LinkFile = z.output<typeof linkFileSchema>;

/** The fields a link row keeps, as a file asks for them (`apiBaseUrl` defaulted). */
export function linkFields(link: LinkFile) {
  return {
    kind: link.kind,
    target: link.target,
    tokenSecretName: link.tokenSecretName,
    apiBaseUrl: link.apiBaseUrl ?? DEFAULT_API_BASE_URLS[link.kind],
    keepPointed: link.keepPointed,
    recover: link.recover,
  };
}

/** Whether applying the file changes the webhook's link (added, removed or edited). */
export function linkChanged(current: LinkRecord | null, next: LinkFile | undefined): boolean {
  if (!current || !next) return (current === null) !== (next === undefined);
  const wanted = linkFields(next);
  return (Object.keys(wanted) as Array<keyof typeof wanted>).some((k) => current[k] !== wanted[k]);
}

/** The link's token must be a team secret of the factory, as the API requires. */
export function linkSecretProblem(
  link: LinkFile | undefined,
  file: string,
  line: number | null,
  secretNames: ReadonlySet<string>,
): DefinitionProblem | null {
  if (!link || secretNames.has(link.tokenSecretName)) return null;
  return {
    file,
    line,
    key: 'link.tokenSecretName',
    message: `no team secret named "${link.tokenSecretName}"; create it with the provider's API token first (POST /api/secrets)`,
  };
}
