import { createHash, randomBytes } from 'node:crypto';

export const newApiTokenValue = (): string => `hpt_${randomBytes(32).toString('base64url')}`;
export const newAdminTokenValue = (): string => `hpa_${randomBytes(32).toString('base64url')}`;
export const newSessionValue = (): string => randomBytes(32).toString('base64url');

/** Tokens and session IDs are stored only as this hash; they are high-entropy, so no salt is needed. */
export const hashToken = (value: string): string =>
  createHash('sha256').update(value, 'utf8').digest('hex');
