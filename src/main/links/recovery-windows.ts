import type { LinkKind } from '../../shared/contract/links.js';

const DAY_MS = 24 * 60 * 60_000;

/** How far back each provider keeps deliveries it can send again (PRODUCT §19). */
export const RECOVERY_WINDOW_MS: Record<LinkKind, number> = {
  github: 3 * DAY_MS,
  gitlab: 7 * DAY_MS,
  stripe: 30 * DAY_MS,
};
