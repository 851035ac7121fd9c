import { z } from 'zod';
import { PROVIDER_NAMES } from './providers/index.js';

export type { SignatureSchemeName } from './providers/index.js';
export { genericHmacOptionsSchema, type GenericHmacOptions } from './providers/index.js';

/** Provider signature schemes a `signature` webhook may name (PRODUCT.md §4): src/shared/providers. */
export const SIGNATURE_SCHEMES = PROVIDER_NAMES;

export const signatureSchemeSchema = z.enum(SIGNATURE_SCHEMES, {
  error: () => `must be one of: ${SIGNATURE_SCHEMES.join(', ')}`,
});
