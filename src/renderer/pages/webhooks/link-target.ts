import type { LinkKind } from '../../../shared/contract/links.js';

/** The link form's two fields: where the hook lives (repository, project; Stripe: the endpoint) and its ID. */
export interface TargetParts {
  place: string;
  hookId: string;
}

/** PRODUCT §19's `target` from the form's fields (Stripe's endpoint ID is the whole target). */
export function targetOf(kind: LinkKind, parts: TargetParts): string {
  const place = parts.place.trim();
  return kind === 'stripe' ? place : `${place}#${parts.hookId.trim()}`;
}

/**
 * A new user has the hook's settings page open, not its ID: the page's address (or a target
 * written out, `acme/api#123`) pasted into the first field fills both. Null when it is neither.
 */
export function partsFromPaste(kind: LinkKind, text: string): TargetParts | null {
  const pasted = text.trim();
  if (kind === 'stripe') {
    const endpoint = /\b(we_[A-Za-z0-9]+)/.exec(pasted);
    return endpoint && endpoint[1] !== pasted ? { place: endpoint[1]!, hookId: '' } : null;
  }
  const written = /^([^\s#]+)#(\d+)$/.exec(pasted);
  if (written) return { place: written[1]!, hookId: written[2]! };
  let path: string;
  try {
    path = new URL(pasted).pathname;
  } catch {
    return null;
  }
  if (kind === 'github') {
    const org = /^\/organizations\/([^/]+)\/settings\/hooks\/(\d+)/.exec(path);
    if (org) return { place: `org:${org[1]!}`, hookId: org[2]! };
    const repo = /^\/([^/]+\/[^/]+)\/settings\/hooks\/(\d+)/.exec(path);
    return repo ? { place: repo[1]!, hookId: repo[2]! } : null;
  }
  const project = /^\/(.+?)\/-\/hooks\/(\d+)/.exec(path);
  return project ? { place: project[1]!, hookId: project[2]! } : null;
}
