import { z } from 'zod';

export const FACTORY_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/;
export const WEBHOOK_UID_PATTERN = /^wh_[a-z0-9]{24}$/;
export const DELIVERY_ID_PATTERN = /^dlv_[0-9A-HJKMNP-TV-Z]{26}$/;

export const factoryIdSchema = z
  .string()
  .regex(FACTORY_ID_PATTERN, 'must be a factory id (lower-case letters, digits and "-")');
export const optionalFactorySchema = factoryIdSchema.default('default');
export const webhookUidSchema = z
  .string()
  .regex(WEBHOOK_UID_PATTERN, 'must be a webhook UID (wh_ and 24 letters or digits)');
export const deliveryIdSchema = z
  .string()
  .regex(DELIVERY_ID_PATTERN, 'must be a delivery ID (dlv_ and 26 characters)');

/** Names become file names on managed factories (webhooks/<name>.yaml), so keep them file-safe. */
export const resourceNameSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    'must be 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit',
  );

export const isoTime = z.string();
export const listOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item) });
